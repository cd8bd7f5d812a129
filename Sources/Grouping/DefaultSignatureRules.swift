extension SignatureRules {
    /// The built-in rules, in the rules-file format (`postmortem group --print-rules` prints them). Names are matched
    /// after normalisation (`FunctionNameNormalizer`): no argument lists in C++ names, `<T>` for template arguments.
    package static let defaultRulesText = """
        # Signal trampolines: what is above them is the handler that printed the report.
        cut __restore_rt|_sigtramp|__kernel_rt_sigreturn|<signal handler called>|__sigreturn|sigreturn

        # The C library's abort, raise and assertion paths.
        skip raise|gsignal|abort|__abort|abort_message|pthread_kill|__pthread_kill|__pthread_kill_implementation|__pthread_kill_internal|__pthread_kill_private|tgkill|__libc_android_abort|__android_log_assert|__abort_with_payload|abort_with_payload|abort_with_payload_wrapper_internal|abort_with_reason
        skip __libc_message|__libc_fatal|malloc_printerr|__fortify_fail|__chk_fail|__stack_chk_fail|__fortify_fail_abort
        skip __assert_fail|__assert_fail_base|__assert_perror_fail|__assert_rtn|__assert|_assert|__GI___assert_fail
        skip exit|_exit|__run_exit_handlers|__cxa_finalize
        # Printing the stack is how the report was made, not the bug.
        skip backtrace|__backtrace|backtrace_symbols|backtrace_symbols_fd|_Unwind_Backtrace|base::debug::StackTrace::StackTrace|logging::LogMessage::~LogMessage

        # Sanitizers' reporting frames.
        skip (__asan|__tsan|__msan|__lsan|__ubsan|__hwasan|__sanitizer|__dfsan|__scudo|__interception)::.*
        skip __(asan|tsan|msan|lsan|ubsan|hwasan|sanitizer|dfsan)_.*

        # C++ and Objective-C exceptions on their way to terminate, and the unwinder.
        skip std::terminate|std::__terminate|__cxxabiv1::.*|__cxa_throw|__cxa_rethrow|__cxa_call_unexpected|__cxa_call_terminate|__cxa_pure_virtual
        skip __gnu_cxx::__verbose_terminate_handler|__clang_call_terminate|demangling_terminate_handler|default_terminate_handler|std::__1::__terminate|_objc_terminate
        skip -\\[NSObject(\\(NSObject\\))? doesNotRecognizeSelector:\\]|\\+\\[NSException raise:format:(arguments:)?\\]|-\\[NSAssertionHandler handleFailure.*\\]
        skip objc_exception_throw|objc_exception_rethrow|_CFThrowFormattedException|__exceptionPreprocess|__boundsFail|_CF_forwarding_prep_0|___forwarding___
        skip _Unwind_.*|__gxx_personality_v0|__gcc_personality_v0|unw_.*|__libunwind_.*|libunwind::.*

        # Swift's failure path: the runtime's reporting, fatalError and preconditions, and the frames the compiler
        # names after the check that failed.
        skip swift_reportError|_swift_stdlib_reportFatalError.*|_swift_stdlib_reportUnimplementedInitializer.*|swift_unexpectedError|swift_errorInMain
        skip swift_dynamicCastFailure|swift_deletedMethodError|swift_abortRetainUnowned|swift_abortRetainOverflow|swift_abortDynamicReplacementEnabling
        skip swift::fatalError|swift::fatalErrorv|swift::swift_abortRetainUnowned|swift::warning|swift::swift_dynamicCastFailure
        skip (closure #[0-9]+ in )*(_assertionFailure|_fatalErrorMessage|fatalError|precondition|preconditionFailure|assert|assertionFailure|_preconditionFailure|_unimplementedInitializer|_diagnoseUnexpectedNilOptional|_diagnoseUnexpectedEnumCase.*)(\\(.*\\))?
        skip Swift runtime failure: .*

        # Swift's compiler-made thunks.
        skip (partial apply( forwarder)? for |reabstraction thunk|thunk for |protocol witness for |dispatch thunk of |outlined |@objc ).*

        # Where threads and tasks start: never the bug.
        skip _start|start|__libc_start_main|__libc_start_main_impl|__libc_start_call_main|start_thread|clone|clone3|thread_start|_pthread_start|_pthread_wqthread|start_wqthread|__clone|__clone3|__start_context|__pthread_start|__start_thread|__bionic_clone
        skip swift::runJobInEstablishedExecutorContext|swift_job_run|swift::.*Job.*|swift_task_.*|swift::runJob.*|_dispatch_.*|dispatch_async_f|_swift_task_.*
        skip (closure #[0-9]+ in )*swift::.*|completeTaskWithClosure.*|completeTaskAndRelease.*

        # Kept in a signature but not counted: where the program was, not which bug (an allocator, a string function,
        # a retain; the C++ and Swift standard libraries' containers; the C library's functions that call the program
        # back, a sort's comparison among them, whose frames are named or not as its debug information was found).
        prefix malloc|calloc|realloc|reallocarray|free|cfree|_int_free|_int_malloc|_int_realloc|tcache_get|unlink_chunk|posix_memalign|aligned_alloc|memalign
        prefix operator new|operator new\\[\\]|operator delete|operator delete\\[\\]
        prefix (__)?(memcpy|memmove|memset|memcmp|memchr|memrchr|strlen|strnlen|strcmp|strncmp|strcasecmp|strcpy|strncpy|stpcpy|strcat|strncat|strchr|strrchr|strstr|strdup|strndup|wcslen|wcscpy|wmemcpy|wmemset)(_[a-z0-9_]+)?
        prefix objc_msgSend|objc_release|objc_retain|objc_autorelease|objc_storeStrong|objc_loadWeakRetained
        prefix swift_retain|swift_release|swift_bridgeObjectRetain|swift_bridgeObjectRelease|swift_unknownObjectRetain|swift_unknownObjectRelease|swift_beginAccess|swift_endAccess|swift_arrayInitWithCopy|swift_allocObject
        prefix std::.*|__gnu_cxx::.*|__cxx11::.*
        prefix (__GI_)?(msort_with_tmp|_quicksort|qsort|qsort_r|__qsort_r|bsearch|tsearch|tfind|twalk|twalk_r|lsearch|lfind|ftw|nftw|scandir|scandirat|dl_iterate_phdr|__dl_iterate_phdr|pthread_once|__pthread_once_slow)
        prefix [-+]\\[_{1,2}NS[A-Za-z]* .*\\]|__CF[A-Za-z_]*|_CF[A-Za-z_]*|CF[A-Z][A-Za-z]*
        prefix (Array|ContiguousArray|ArraySlice|_ArrayBuffer|_ContiguousArrayBuffer|Dictionary|_NativeDictionary|Set|_NativeSet|String|Substring|Character|Collection|Sequence|BidirectionalCollection|RandomAccessCollection|MutableCollection|RangeReplaceableCollection|IndexingIterator|Optional|Range|ClosedRange|Unsafe[A-Za-z]*Pointer|Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64|Double|Float|Result|KeyPath|_StringGuts|_StringObject|LazySequence|LazyMapSequence|EnumeratedSequence|Zip2Sequence)(<[^>]*>)?\\..*
        """
}
