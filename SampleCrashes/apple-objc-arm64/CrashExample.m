// CrashExample: the classic field crash of an Objective-C app, an index past the end of an array.
// Built for arm64 macOS on Linux (see build.sh), so it declares the few Foundation methods it calls
// instead of importing the SDK's headers; the calls go to the real Foundation at run time.
typedef unsigned long NSUInteger;

__attribute__((objc_root_class))
@interface NSObject
+ (instancetype)alloc;
- (instancetype)init;
@end

@interface NSArray : NSObject
+ (instancetype)arrayWithObjects:(const id[])objects count:(NSUInteger)count;
- (id)objectAtIndex:(NSUInteger)index;
- (NSUInteger)count;
@end

@interface NSString : NSObject
@end

@interface CrashExampleAppDelegate : NSObject {
    NSArray *_transitions;
    NSUInteger _nextTransition;
    id _currentTransition;
}
- (void)performTransition;
@end

/// The transition at `index`; inlined into its caller, so the crashing frame has an inlined function.
static inline __attribute__((always_inline)) id transitionAt(NSArray *transitions, NSUInteger index) {
    return [transitions objectAtIndex:index]; // frame: transitionAt
}

@implementation CrashExampleAppDelegate
- (instancetype)init {
    self = [super init];
    const id names[] = { @"fade", @"push", @"reveal", @"flip" };
    _transitions = [NSArray arrayWithObjects:names count:4];
    _nextTransition = 0;
    return self;
}

- (void)performTransition {
    // Off by one: the index runs past the last transition instead of wrapping to the first.
    _currentTransition = transitionAt(_transitions, _nextTransition);
    _nextTransition += 1;
}
@end

int main(int argc, char *argv[]) {
    CrashExampleAppDelegate *delegate = [[CrashExampleAppDelegate alloc] init];
    for (int step = 0; step < 5 + argc; step++) {
        [delegate performTransition]; // frame: main
    }
    return 0;
}
