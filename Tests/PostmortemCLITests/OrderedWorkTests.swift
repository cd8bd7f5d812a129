import Dispatch
import Foundation
import Synchronization
import Testing

@testable import postmortem

/// The logs of a folder worked on by several threads, the calling thread one of them, handed back in order.
@Suite("Ordered work")
struct OrderedWorkTests {
    /// Items handed back in their order, each once, whatever thread did them and however long each took.
    @Test(arguments: [1, 2, 3])
    func itemsAreHandedBackInTheirOrder(workers: Int) {
        var handedBack: [Int] = []
        OrderedWork.run(
            count: 200, workers: workers, window: 4 * workers,
            makeWorker: {
                { index, _ in
                    if index % 7 == 0 { usleep(UInt32(index % 3) * 1_000) }
                    return index
                }
            },
            deliver: { handedBack.append($0) })
        #expect(handedBack == Array(0..<200))
    }

    /// An item of the calling thread's (a huge log) whose predecessor another thread finishes meanwhile: its turn
    /// comes while it is worked on, so that it may write as it goes rather than be held whole to its end. The calling
    /// thread is made slow to start, so that the other thread takes the first item.
    @Test func anItemOfTheCallingThreadsComesToItsTurnWhileWorkedOn() {
        let caller = pthread_self()
        let secondStarted = DispatchSemaphore(value: 0)
        let secondWasTheCallers = Mutex<Bool?>(nil)
        let turnCameWhileWorking = Mutex<Bool?>(nil)
        var handedBack: [Int] = []
        OrderedWork.run(
            count: 3, workers: 2, window: 8,
            makeWorker: {
                let onCaller = pthread_equal(pthread_self(), caller) != 0
                if onCaller { usleep(100_000) }
                return { index, turn in
                    switch index {
                    case 0:
                        // Finished once the second item is under way (bounded, should the caller have taken this one).
                        _ = secondStarted.wait(timeout: .now() + 10)
                    case 1:
                        secondWasTheCallers.withLock { $0 = onCaller }
                        secondStarted.signal()
                        let deadline = Date().addingTimeInterval(10)
                        while !turn.hasCome, Date() < deadline { usleep(1_000) }
                        turnCameWhileWorking.withLock { $0 = turn.hasCome }
                    default: break
                    }
                    return index
                }
            },
            deliver: { handedBack.append($0) })
        #expect(handedBack == [0, 1, 2])
        #expect(secondWasTheCallers.withLock { $0 } == true, "the setup: the calling thread took the second item")
        #expect(turnCameWhileWorking.withLock { $0 } == true)
    }
}
