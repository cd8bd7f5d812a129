// Objective-C part of the Apple fixture: a root class, so no Foundation is needed.
#include "sensors.h"

__attribute__((objc_root_class))
@interface Widget {
    const struct reading *_readings;
    int _count;
}
+ (double)totalForSensor:(const struct reading *)readings count:(int)count;
- (double)total;
@end

@implementation Widget
+ (double)totalForSensor:(const struct reading *)readings count:(int)count {
    double sum = 0;
    for (int i = 0; i < count; i++) sum += sample_at(readings, count, i);
    return sum;
}

- (double)total {
    return [Widget totalForSensor:_readings count:_count];
}
@end

double widget_total(const struct reading *rs, int n) {
    return [Widget totalForSensor:rs count:n];
}
