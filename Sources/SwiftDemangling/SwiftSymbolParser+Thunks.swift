/// What a symbol is to its entity: specializations, thunks, witnesses, metadata and descriptors.
extension SwiftSymbolParser {
    mutating func demangleThunkOrSpecialization() -> SwiftNodeID? {
        let character = next()
        switch character {
        case UInt8(ascii: "c"): return make(.curryThunk, pop(where: Self.isEntity))
        case UInt8(ascii: "j"): return make(.dispatchThunk, pop(where: Self.isEntity))
        case UInt8(ascii: "q"): return make(.methodDescriptor, pop(where: Self.isEntity))
        case UInt8(ascii: "o"): return tree.make(.objCAttribute)
        case UInt8(ascii: "O"): return tree.make(.nonObjCAttribute)
        case UInt8(ascii: "D"): return tree.make(.dynamicAttribute)
        case UInt8(ascii: "d"): return tree.make(.directMethodReferenceAttribute)
        case UInt8(ascii: "a"): return tree.make(.partialApplyObjCForwarder)
        case UInt8(ascii: "A"): return tree.make(.partialApplyForwarder)
        case UInt8(ascii: "m"): return tree.make(.mergedFunction)
        case UInt8(ascii: "X"): return tree.make(.dynamicallyReplaceableFunctionVar)
        case UInt8(ascii: "x"): return tree.make(.dynamicallyReplaceableFunctionKey)
        case UInt8(ascii: "I"): return tree.make(.dynamicallyReplaceableFunctionImpl)
        case UInt8(ascii: "u"): return tree.make(.asyncFunctionPointer)
        case UInt8(ascii: "Y"), UInt8(ascii: "Q"):
            let discriminator = demangleIndexAsNode()
            return make(
                character == UInt8(ascii: "Q") ? .asyncAwaitResumePartialFunction : .asyncSuspendResumePartialFunction,
                discriminator)
        case UInt8(ascii: "V"):
            let base = pop(where: Self.isEntity)
            let derived = pop(where: Self.isEntity)
            return make(.vTableThunk, derived, base)
        case UInt8(ascii: "W"):
            let entity = pop(where: Self.isEntity)
            let conformance = popProtocolConformance()
            return make(.protocolWitness, conformance, entity)
        case UInt8(ascii: "S"):
            return make(.protocolSelfConformanceWitness, pop(where: Self.isEntity))
        case UInt8(ascii: "R"), UInt8(ascii: "r"), UInt8(ascii: "y"):
            let kind: SwiftNodeKind =
                switch character {
                case UInt8(ascii: "R"): .reabstractionThunkHelper
                case UInt8(ascii: "y"): .reabstractionThunkHelperWithSelf
                default: .reabstractionThunk
                }
            let thunk = tree.make(kind)
            add(pop(.dependentGenericSignature), to: thunk)
            if kind == .reabstractionThunkHelperWithSelf { guard add(pop(.type), to: thunk) != nil else { return nil } }
            guard add(pop(.type), to: thunk) != nil, add(pop(.type), to: thunk) != nil else { return nil }
            return thunk
        case UInt8(ascii: "g"): return demangleGenericSpecialization(.genericSpecialization)
        case UInt8(ascii: "G"): return demangleGenericSpecialization(.genericSpecializationNotReAbstracted)
        case UInt8(ascii: "B"): return demangleGenericSpecialization(.genericSpecializationInResilienceDomain)
        case UInt8(ascii: "s"): return demangleGenericSpecialization(.genericSpecializationPrespecialized)
        case UInt8(ascii: "i"): return demangleGenericSpecialization(.inlinedGenericFunction)
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            let specialization = demangleSpecializationAttributes(
                character == UInt8(ascii: "p")
                    ? .genericPartialSpecialization
                    : .genericPartialSpecializationNotReAbstracted)
            return add(make(.genericSpecializationParam, pop(.type)), to: specialization)
        case UInt8(ascii: "f"): return demangleFunctionSpecialization()
        case UInt8(ascii: "v"):
            guard let index = demangleIndex() else { return nil }
            return tree.make(.outlinedVariable, index: UInt64(index))
        case UInt8(ascii: "K"), UInt8(ascii: "k"):
            return demangleKeyPathThunk(
                character == UInt8(ascii: "K") ? .keyPathGetterThunkHelper : .keyPathSetterThunkHelper)
        default:
            return nil
        }
    }

    /// A key path's getter or setter thunk: the types it was made for, after its declaration and signature.
    private mutating func demangleKeyPathThunk(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let isSerialized = nextIf("q")
        var types: [SwiftNodeID] = []
        guard var node = pop(), tree.kind(node) == .type else { return nil }
        while true {
            types.append(node)
            guard let popped = pop() else { return nil }
            node = popped
            if tree.kind(node) != .type { break }
        }
        let result: SwiftNodeID?
        if tree.kind(node) == .dependentGenericSignature {
            guard let declaration = pop() else { return nil }
            result = make(kind, declaration, node)
        } else {
            result = make(kind, node)
        }
        guard let result else { return nil }
        for type in types.reversed() { tree.addChild(type, to: result) }
        if isSerialized { tree.addChild(tree.make(.isSerialized), to: result) }
        return result
    }

    private mutating func demangleSpecializationAttributes(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let isSerialized = nextIf("q")
        let passID = Int(next()) - Int(UInt8(ascii: "0"))
        guard passID >= 0, passID <= 9 else { return nil }
        let specialization = tree.make(kind)
        if isSerialized { tree.addChild(tree.make(.isSerialized), to: specialization) }
        tree.addChild(tree.make(.specializationPassID, index: UInt64(passID)), to: specialization)
        return specialization
    }

    private mutating func demangleGenericSpecialization(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        guard let specialization = demangleSpecializationAttributes(kind), let types = popTypeList() else {
            return nil
        }
        for position in 0..<tree.childCount(types) {
            guard let parameter = make(.genericSpecializationParam, tree.child(types, position)) else { return nil }
            tree.addChild(parameter, to: specialization)
        }
        return specialization
    }

    // MARK: Function signature specializations

    /// The parameter kinds of `FunctionSigSpecializationParamKind`.
    enum SignatureParameterKind: UInt64 {
        case constantPropFunction = 0
        case constantPropGlobal = 1
        case constantPropInteger = 2
        case constantPropFloat = 3
        case constantPropString = 4
        case closureProp = 5
        case boxToValue = 6
        case boxToStack = 7
        case inOutToOut = 8
        case constantPropKeyPath = 9

        static let dead: UInt64 = 1 << 6
        static let ownedToGuaranteed: UInt64 = 1 << 7
        static let sroa: UInt64 = 1 << 8
        static let guaranteedToOwned: UInt64 = 1 << 9
        static let existentialToGeneric: UInt64 = 1 << 10
    }

    private mutating func demangleFunctionSpecialization() -> SwiftNodeID? {
        var specialization = demangleSpecializationAttributes(.functionSignatureSpecialization)
        while specialization != nil && !nextIf("_") {
            specialization = add(demangleSignatureParameter(.functionSignatureSpecializationParam), to: specialization)
        }
        if !nextIf("n") {
            specialization = add(demangleSignatureParameter(.functionSignatureSpecializationReturn), to: specialization)
        }
        guard let specialization else { return nil }

        // The payloads of the parameters, pushed before the specialization, in reverse order.
        let count = tree.childCount(specialization)
        for offset in 0..<count {
            let parameter = tree.child(specialization, count - offset - 1)
            guard tree.kind(parameter) == .functionSignatureSpecializationParam, tree.childCount(parameter) > 0 else {
                continue
            }
            let kindNode = tree.child(parameter, 0)
            guard let kind = SignatureParameterKind(rawValue: tree.index(kindNode)) else { continue }
            switch kind {
            case .constantPropFunction, .constantPropGlobal, .constantPropString, .constantPropKeyPath, .closureProp:
                let fixedChildren = tree.childCount(parameter)
                while let type = pop(.type) {
                    guard kind == .closureProp || kind == .constantPropKeyPath else { return nil }
                    tree.addChild(type, to: parameter)
                }
                guard let name = pop(.identifier) else { return nil }
                var range = tree.textRange(name)
                if kind == .constantPropString, !range.isEmpty, tree.text[range.lowerBound] == UInt8(ascii: "_") {
                    range = (range.lowerBound + 1)..<range.upperBound
                }
                let payloadStart = tree.textCount
                tree.appendText(Array(tree.text[range]))
                tree.addChild(
                    tree.make(.functionSignatureSpecializationParamPayload, textFrom: payloadStart), to: parameter)
                tree.reverseChildren(of: parameter, from: fixedChildren)
            default:
                break
            }
        }
        return specialization
    }

    private mutating func signatureParameter(
        _ parameter: SwiftNodeID, _ kind: UInt64
    ) -> SwiftNodeID {
        tree.addChild(tree.make(.functionSignatureSpecializationParamKind, index: kind), to: parameter)
        return parameter
    }

    private mutating func demangleSignatureParameter(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let parameter = tree.make(kind)
        typealias Kind = SignatureParameterKind
        switch next() {
        case UInt8(ascii: "n"):
            return parameter
        case UInt8(ascii: "c"):
            return signatureParameter(parameter, Kind.closureProp.rawValue)
        case UInt8(ascii: "p"):
            switch next() {
            case UInt8(ascii: "f"): return signatureParameter(parameter, Kind.constantPropFunction.rawValue)
            case UInt8(ascii: "g"): return signatureParameter(parameter, Kind.constantPropGlobal.rawValue)
            case UInt8(ascii: "i"): return signatureParameterNumber(parameter, Kind.constantPropInteger.rawValue)
            case UInt8(ascii: "d"): return signatureParameterNumber(parameter, Kind.constantPropFloat.rawValue)
            case UInt8(ascii: "s"):
                let encoding: StaticString
                switch next() {
                case UInt8(ascii: "b"): encoding = "u8"
                case UInt8(ascii: "w"): encoding = "u16"
                case UInt8(ascii: "c"): encoding = "objc"
                default: return nil
                }
                _ = signatureParameter(parameter, Kind.constantPropString.rawValue)
                tree.addChild(tree.make(.functionSignatureSpecializationParamPayload, string: encoding), to: parameter)
                return parameter
            case UInt8(ascii: "k"): return signatureParameter(parameter, Kind.constantPropKeyPath.rawValue)
            default: return nil
            }
        case UInt8(ascii: "e"):
            var value = Kind.existentialToGeneric
            if nextIf("D") { value |= Kind.dead }
            if nextIf("G") { value |= Kind.ownedToGuaranteed }
            if nextIf("O") { value |= Kind.guaranteedToOwned }
            if nextIf("X") { value |= Kind.sroa }
            return signatureParameter(parameter, value)
        case UInt8(ascii: "d"):
            var value = Kind.dead
            if nextIf("G") { value |= Kind.ownedToGuaranteed }
            if nextIf("O") { value |= Kind.guaranteedToOwned }
            if nextIf("X") { value |= Kind.sroa }
            return signatureParameter(parameter, value)
        case UInt8(ascii: "g"):
            var value = Kind.ownedToGuaranteed
            if nextIf("X") { value |= Kind.sroa }
            return signatureParameter(parameter, value)
        case UInt8(ascii: "o"):
            var value = Kind.guaranteedToOwned
            if nextIf("X") { value |= Kind.sroa }
            return signatureParameter(parameter, value)
        case UInt8(ascii: "x"): return signatureParameter(parameter, Kind.sroa)
        case UInt8(ascii: "i"): return signatureParameter(parameter, Kind.boxToValue.rawValue)
        case UInt8(ascii: "s"): return signatureParameter(parameter, Kind.boxToStack.rawValue)
        case UInt8(ascii: "r"): return signatureParameter(parameter, Kind.inOutToOut.rawValue)
        default: return nil
        }
    }

    private mutating func signatureParameterNumber(_ parameter: SwiftNodeID, _ kind: UInt64) -> SwiftNodeID? {
        _ = signatureParameter(parameter, kind)
        let start = tree.textCount
        while isDigit(peek()) { tree.appendText(CollectionOfOne(next())) }
        guard tree.textCount > start else { return nil }
        tree.addChild(tree.make(.functionSignatureSpecializationParamPayload, textFrom: start), to: parameter)
        return parameter
    }

    // MARK: Conformances

    mutating func popProtocolConformance() -> SwiftNodeID? {
        let signature = pop(.dependentGenericSignature)
        let module = popModule()
        let proto = popProtocol()
        var type = pop(.type)
        if type == nil { return nil }
        if let signature { type = makeType(make(.dependentGenericType, signature, type)) }
        return make(.protocolConformance, type, proto, module)
    }

    // MARK: Witnesses

    mutating func demangleWitness() -> SwiftNodeID? {
        switch next() {
        case UInt8(ascii: "C"): return make(.enumCase, pop(where: Self.isEntity))
        case UInt8(ascii: "V"): return make(.valueWitnessTable, pop(.type))
        case UInt8(ascii: "v"):
            let directness: UInt64
            switch next() {
            case UInt8(ascii: "d"): directness = 0
            case UInt8(ascii: "i"): directness = 1
            default: return nil
            }
            return make(.fieldOffset, tree.make(.directness, index: directness), pop(where: Self.isEntity))
        case UInt8(ascii: "P"): return make(.protocolWitnessTable, popProtocolConformance())
        case UInt8(ascii: "p"): return make(.protocolWitnessTablePattern, popProtocolConformance())
        case UInt8(ascii: "G"): return make(.genericProtocolWitnessTable, popProtocolConformance())
        case UInt8(ascii: "I"):
            return make(.genericProtocolWitnessTableInstantiationFunction, popProtocolConformance())
        case UInt8(ascii: "r"): return make(.resilientProtocolWitnessTable, popProtocolConformance())
        case UInt8(ascii: "a"): return make(.protocolWitnessTableAccessor, popProtocolConformance())
        case UInt8(ascii: "b"):
            let protocolType = pop(.type)
            let conformance = popProtocolConformance()
            return make(.baseWitnessTableAccessor, conformance, protocolType)
        case UInt8(ascii: "T"):
            let protocolType = pop(.type)
            let conformingType = popAssociatedTypePath()
            let conformance = popProtocolConformance()
            return make(.associatedTypeWitnessTableAccessor, conformance, conformingType, protocolType)
        case UInt8(ascii: "l"):
            let conformance = popProtocolConformance()
            let type = pop(.type)
            return make(.lazyProtocolWitnessTableAccessor, type, conformance)
        case UInt8(ascii: "L"):
            let conformance = popProtocolConformance()
            let type = pop(.type)
            return make(.lazyProtocolWitnessTableCacheVariable, type, conformance)
        case UInt8(ascii: "O"):
            let kind: SwiftNodeKind
            switch next() {
            case UInt8(ascii: "y"): kind = .outlinedCopy
            case UInt8(ascii: "e"): kind = .outlinedConsume
            case UInt8(ascii: "r"): kind = .outlinedRetain
            case UInt8(ascii: "s"): kind = .outlinedRelease
            case UInt8(ascii: "b"): kind = .outlinedInitializeWithTake
            case UInt8(ascii: "c"): kind = .outlinedInitializeWithCopy
            case UInt8(ascii: "d"): kind = .outlinedAssignWithTake
            case UInt8(ascii: "f"): kind = .outlinedAssignWithCopy
            case UInt8(ascii: "h"): kind = .outlinedDestroy
            default: return nil
            }
            if let signature = pop(.dependentGenericSignature) { return make(kind, pop(.type), signature) }
            return make(kind, pop(.type))
        default:
            return nil
        }
    }

    // MARK: Metadata

    mutating func demangleMetatype() -> SwiftNodeID? {
        let kind: SwiftNodeKind
        switch next() {
        case UInt8(ascii: "a"): kind = .typeMetadataAccessFunction
        case UInt8(ascii: "f"): kind = .fullTypeMetadata
        case UInt8(ascii: "i"): kind = .typeMetadataInstantiationFunction
        case UInt8(ascii: "I"): kind = .typeMetadataInstantiationCache
        case UInt8(ascii: "l"): kind = .typeMetadataSingletonInitializationCache
        case UInt8(ascii: "L"): kind = .typeMetadataLazyCache
        case UInt8(ascii: "m"): kind = .metaclass
        case UInt8(ascii: "n"): kind = .nominalTypeDescriptor
        case UInt8(ascii: "o"): kind = .classMetadataBaseOffset
        case UInt8(ascii: "P"): kind = .genericTypeMetadataPattern
        case UInt8(ascii: "r"): kind = .typeMetadataCompletionFunction
        case UInt8(ascii: "u"): kind = .methodLookupFunction
        case UInt8(ascii: "F"): kind = .reflectionMetadataFieldDescriptor
        case UInt8(ascii: "B"): kind = .reflectionMetadataBuiltinDescriptor
        case UInt8(ascii: "p"): return make(.protocolDescriptor, popProtocol())
        case UInt8(ascii: "c"): return make(.protocolConformanceDescriptor, popProtocolConformance())
        case UInt8(ascii: "V"): return make(.propertyDescriptor, pop(where: Self.isEntity))
        default: return nil
        }
        return make(kind, pop(.type))
    }

    // MARK: Impl function types (the lowered types of reabstraction thunks)

    mutating func demangleImplFunctionType() -> SwiftNodeID? {
        let type = tree.make(.implFunctionType)
        // Pattern and invocation substitutions, pseudogeneric signatures and differentiability: the runtime's.
        if peek() == UInt8(ascii: "s") || peek() == UInt8(ascii: "I") { return nil }
        let signature = pop(.dependentGenericSignature)
        if signature != nil && peek() == UInt8(ascii: "P") { return nil }
        if nextIf("e") { tree.addChild(tree.make(.implEscaping), to: type) }
        switch peek() {
        case UInt8(ascii: "d"), UInt8(ascii: "l"), UInt8(ascii: "f"), UInt8(ascii: "r"): return nil
        default: break
        }
        let callee: StaticString
        switch next() {
        case UInt8(ascii: "y"): callee = "@callee_unowned"
        case UInt8(ascii: "g"): callee = "@callee_guaranteed"
        case UInt8(ascii: "x"): callee = "@callee_owned"
        case UInt8(ascii: "t"): callee = "@convention(thin)"
        default: return nil
        }
        tree.addChild(tree.make(.implConvention, string: callee), to: type)

        let functionConvention: StaticString?
        switch next() {
        case UInt8(ascii: "B"): functionConvention = "block"
        case UInt8(ascii: "C"): functionConvention = "c"
        case UInt8(ascii: "z"): return nil
        case UInt8(ascii: "M"): functionConvention = "method"
        case UInt8(ascii: "O"): functionConvention = "objc_method"
        case UInt8(ascii: "K"): functionConvention = "closure"
        case UInt8(ascii: "W"): functionConvention = "witness_method"
        default:
            pushBack()
            functionConvention = nil
        }
        if let functionConvention {
            let attribute = tree.make(.implFunctionConvention)
            tree.addChild(tree.make(.implFunctionConventionName, string: functionConvention), to: attribute)
            tree.addChild(attribute, to: type)
        }
        if nextIf("A") {
            tree.addChild(tree.make(.implFunctionAttribute, string: "@yield_once"), to: type)
        } else if nextIf("G") {
            tree.addChild(tree.make(.implFunctionAttribute, string: "@yield_many"), to: type)
        }
        if nextIf("h") { tree.addChild(tree.make(.implFunctionAttribute, string: "@Sendable"), to: type) }
        if nextIf("H") { tree.addChild(tree.make(.implFunctionAttribute, string: "@async"), to: type) }
        // Sending results and isolation (Swift 6) are left to the runtime.
        if peek() == UInt8(ascii: "T") { return nil }
        add(signature, to: type)

        var typesToAdd = 0
        while let parameter = demangleImplConvention(.implParameter, results: false) {
            tree.addChild(parameter, to: type)
            if !demangleImplDifferentiability(parameter) { return nil }
            typesToAdd += 1
        }
        while let result = demangleImplConvention(.implResult, results: true) {
            tree.addChild(result, to: type)
            if !demangleImplDifferentiability(result) { return nil }
            typesToAdd += 1
        }
        while nextIf("Y") {
            guard let yield = demangleImplConvention(.implYield, results: false) else { return nil }
            tree.addChild(yield, to: type)
            typesToAdd += 1
        }
        if nextIf("z") {
            guard let error = demangleImplConvention(.implErrorResult, results: true) else { return nil }
            tree.addChild(error, to: type)
            typesToAdd += 1
        }
        guard nextIf("_") else { return nil }
        let count = tree.childCount(type)
        for offset in 0..<typesToAdd {
            guard let conventionType = pop(.type) else { return nil }
            tree.addChild(conventionType, to: tree.child(type, count - offset - 1))
        }
        return makeType(type)
    }

    private mutating func demangleImplConvention(_ kind: SwiftNodeKind, results: Bool) -> SwiftNodeID? {
        let attribute: StaticString
        let character = next()
        if results {
            switch character {
            case UInt8(ascii: "r"): attribute = "@out"
            case UInt8(ascii: "o"): attribute = "@owned"
            case UInt8(ascii: "d"): attribute = "@unowned"
            case UInt8(ascii: "u"): attribute = "@unowned_inner_pointer"
            case UInt8(ascii: "a"): attribute = "@autoreleased"
            default:
                pushBack()
                return nil
            }
        } else {
            switch character {
            case UInt8(ascii: "i"): attribute = "@in"
            case UInt8(ascii: "c"): attribute = "@in_constant"
            case UInt8(ascii: "l"): attribute = "@inout"
            case UInt8(ascii: "b"): attribute = "@inout_aliasable"
            case UInt8(ascii: "n"): attribute = "@in_guaranteed"
            case UInt8(ascii: "x"): attribute = "@owned"
            case UInt8(ascii: "g"): attribute = "@guaranteed"
            case UInt8(ascii: "e"): attribute = "@deallocating"
            case UInt8(ascii: "y"): attribute = "@unowned"
            default:
                pushBack()
                return nil
            }
        }
        return make(kind, tree.make(.implConvention, string: attribute))
    }

    /// `w` (no derivative) after a parameter or result is declined; anything else is the default, printed as nothing.
    private mutating func demangleImplDifferentiability(_ node: SwiftNodeID) -> Bool {
        if peek() == UInt8(ascii: "w") { return false }
        tree.addChild(tree.make(.implParameterResultDifferentiability), to: node)
        return true
    }
}
