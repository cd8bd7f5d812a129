/// The value witnesses (`w` and two letters), as `swift/Demangling/ValueWitnessMangling.def` names them.
enum ValueWitnessNames {
    /// The name of the witness whose code is `first`, `second`, or nil for another code.
    static func name(_ first: UInt8, _ second: UInt8) -> StaticString? {
        switch (first, second) {
        case (UInt8(ascii: "a"), UInt8(ascii: "l")): "allocateBuffer"
        case (UInt8(ascii: "c"), UInt8(ascii: "a")): "assignWithCopy"
        case (UInt8(ascii: "t"), UInt8(ascii: "a")): "assignWithTake"
        case (UInt8(ascii: "d"), UInt8(ascii: "e")): "deallocateBuffer"
        case (UInt8(ascii: "x"), UInt8(ascii: "x")): "destroy"
        case (UInt8(ascii: "X"), UInt8(ascii: "X")): "destroyBuffer"
        case (UInt8(ascii: "X"), UInt8(ascii: "x")): "destroyArray"
        case (UInt8(ascii: "C"), UInt8(ascii: "P")): "initializeBufferWithCopyOfBuffer"
        case (UInt8(ascii: "C"), UInt8(ascii: "p")): "initializeBufferWithCopy"
        case (UInt8(ascii: "c"), UInt8(ascii: "p")): "initializeWithCopy"
        case (UInt8(ascii: "T"), UInt8(ascii: "k")): "initializeBufferWithTake"
        case (UInt8(ascii: "t"), UInt8(ascii: "k")): "initializeWithTake"
        case (UInt8(ascii: "p"), UInt8(ascii: "r")): "projectBuffer"
        case (UInt8(ascii: "T"), UInt8(ascii: "K")): "initializeBufferWithTakeOfBuffer"
        case (UInt8(ascii: "C"), UInt8(ascii: "c")): "initializeArrayWithCopy"
        case (UInt8(ascii: "T"), UInt8(ascii: "t")): "initializeArrayWithTakeFrontToBack"
        case (UInt8(ascii: "t"), UInt8(ascii: "T")): "initializeArrayWithTakeBackToFront"
        case (UInt8(ascii: "x"), UInt8(ascii: "s")): "storeExtraInhabitant"
        case (UInt8(ascii: "x"), UInt8(ascii: "g")): "getExtraInhabitantIndex"
        case (UInt8(ascii: "u"), UInt8(ascii: "g")): "getEnumTag"
        case (UInt8(ascii: "u"), UInt8(ascii: "p")): "destructiveProjectEnumData"
        case (UInt8(ascii: "u"), UInt8(ascii: "i")): "destructiveInjectEnumTag"
        case (UInt8(ascii: "e"), UInt8(ascii: "t")): "getEnumTagSinglePayload"
        case (UInt8(ascii: "s"), UInt8(ascii: "t")): "storeEnumTagSinglePayload"
        default: nil
        }
    }
}
