/* The declaration in include/CFuzzDriver.h is all this target holds. */
