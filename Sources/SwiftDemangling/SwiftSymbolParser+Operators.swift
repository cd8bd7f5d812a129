/// The operators: one letter (sometimes two) that pops its operands and makes a node.
extension SwiftSymbolParser {
    mutating func demangleOperator() -> SwiftNodeID? {
        let character = next()
        switch character {
        case UInt8(ascii: "A"): return demangleMultiSubstitutions()
        case UInt8(ascii: "B"): return demangleBuiltinType()
        case UInt8(ascii: "C"): return demangleAnyGenericType(.class_)
        case UInt8(ascii: "D"): return demangleTypeMangling()
        case UInt8(ascii: "E"): return demangleExtensionContext()
        case UInt8(ascii: "F"): return demanglePlainFunction()
        case UInt8(ascii: "G"): return demangleBoundGenericType()
        case UInt8(ascii: "H"):
            // Conformances and runtime records: left to the runtime.
            return nil
        case UInt8(ascii: "I"): return demangleImplFunctionType()
        case UInt8(ascii: "K"): return tree.make(.throwsAnnotation)
        case UInt8(ascii: "L"): return demangleLocalIdentifier()
        case UInt8(ascii: "M"): return demangleMetatype()
        case UInt8(ascii: "N"): return make(.typeMetadata, pop(.type))
        case UInt8(ascii: "O"): return demangleAnyGenericType(.enum_)
        case UInt8(ascii: "P"): return demangleAnyGenericType(.protocol_)
        case UInt8(ascii: "Q"): return demangleArchetype()
        case UInt8(ascii: "R"): return demangleGenericRequirement()
        case UInt8(ascii: "S"): return demangleStandardSubstitution()
        case UInt8(ascii: "T"): return demangleThunkOrSpecialization()
        case UInt8(ascii: "V"): return demangleAnyGenericType(.structure)
        case UInt8(ascii: "W"): return demangleWitness()
        case UInt8(ascii: "X"): return demangleSpecialType()
        case UInt8(ascii: "Y"): return demangleTypeAnnotation()
        case UInt8(ascii: "Z"): return make(.static_, pop(where: Self.isEntity))
        case UInt8(ascii: "a"): return demangleAnyGenericType(.typeAlias)
        case UInt8(ascii: "c"): return popFunctionType(.functionType)
        case UInt8(ascii: "d"): return tree.make(.variadicMarker)
        case UInt8(ascii: "f"): return demangleFunctionEntity()
        case UInt8(ascii: "h"): return makeType(make(.shared, popTypeAndGetChild()))
        case UInt8(ascii: "i"): return demangleSubscript()
        case UInt8(ascii: "l"): return demangleGenericSignature(hasParameterCounts: false)
        case UInt8(ascii: "m"): return makeType(make(.metatype, pop(.type)))
        case UInt8(ascii: "n"): return makeType(make(.owned, popTypeAndGetChild()))
        case UInt8(ascii: "o"): return demangleOperatorIdentifier()
        case UInt8(ascii: "p"): return makeType(demangleProtocolList())
        case UInt8(ascii: "q"): return makeType(demangleGenericParamIndex())
        case UInt8(ascii: "r"): return demangleGenericSignature(hasParameterCounts: true)
        case UInt8(ascii: "s"): return tree.make(.module, string: "Swift")
        case UInt8(ascii: "t"): return popTuple()
        case UInt8(ascii: "u"):
            let signature = pop(.dependentGenericSignature)
            let type = pop(.type)
            return makeType(make(.dependentGenericType, signature, type))
        case UInt8(ascii: "v"): return demangleVariable()
        case UInt8(ascii: "w"):
            let first = next()
            let second = next()
            guard ValueWitnessNames.name(first, second) != nil else { return nil }
            let witness = tree.make(.valueWitness, text: [first, second])
            return add(pop(.type), to: witness)
        case UInt8(ascii: "x"): return makeType(dependentGenericParamType(depth: 0, index: 0))
        case UInt8(ascii: "y"): return tree.make(.emptyList)
        case UInt8(ascii: "z"): return makeType(make(.inOut, popTypeAndGetChild()))
        case UInt8(ascii: "_"): return tree.make(.firstElementMarker)
        case UInt8(ascii: "."):
            // `.cold`, `.1`, … after the mangling: kept as a suffix, which the simplified form does not show.
            pushBack()
            let start = position
            position += remaining
            return tree.make(.suffix, text: inputBytes(start..<position))
        default:
            // Symbolic references (bytes 1–0x1F, 0xFF) belong to metadata strings, not to symbols.
            pushBack()
            return demangleIdentifier()
        }
    }

    // MARK: Classifications (`Demangler.cpp`'s predicates)

    static func isDeclName(_ kind: SwiftNodeKind) -> Bool {
        switch kind {
        case .identifier, .localDeclName, .privateDeclName, .prefixOperator,
            .postfixOperator, .infixOperator:
            return true
        default: return false
        }
    }

    static func isAnyGeneric(_ kind: SwiftNodeKind) -> Bool {
        switch kind {
        case .structure, .class_, .enum_, .protocol_, .otherNominalType, .typeAlias: return true
        default: return false
        }
    }

    /// The context kinds of `DemangleNodes.def` (`CONTEXT_NODE`) among those read here.
    static func isContext(_ kind: SwiftNodeKind) -> Bool {
        switch kind {
        case .allocator, .class_, .constructor, .deallocator, .defaultArgumentInitializer,
            .destructor, .didSet, .enum_, .explicitClosure, .extension_, .function, .getter, .globalGetter,
            .iVarInitializer, .iVarDestroyer, .implicitClosure, .initializer, .materializeForSet, .modifyAccessor,
            .module, .nativeOwningAddressor, .nativeOwningMutableAddressor, .nativePinningAddressor,
            .nativePinningMutableAddressor, .otherNominalType, .owningAddressor, .owningMutableAddressor,
            .propertyWrapperBackingInitializer, .propertyWrapperInitFromProjectedValue, .protocol_, .readAccessor,
            .setter, .static_, .structure, .subscript_, .typeAlias, .unsafeAddressor, .unsafeMutableAddressor,
            .variable, .willSet:
            return true
        default: return false
        }
    }

    static func isEntity(_ kind: SwiftNodeKind) -> Bool { kind == .type || isContext(kind) }

    static func isRequirement(_ kind: SwiftNodeKind) -> Bool {
        switch kind {
        case .dependentGenericSameTypeRequirement, .dependentGenericLayoutRequirement,
            .dependentGenericConformanceRequirement, .dependentGenericInverseConformanceRequirement:
            return true
        default: return false
        }
    }

    static func isFunctionAttribute(_ kind: SwiftNodeKind) -> Bool {
        switch kind {
        case .functionSignatureSpecialization, .genericSpecialization, .genericSpecializationPrespecialized,
            .inlinedGenericFunction, .genericSpecializationNotReAbstracted, .genericPartialSpecialization,
            .genericPartialSpecializationNotReAbstracted, .genericSpecializationInResilienceDomain, .objCAttribute,
            .nonObjCAttribute, .dynamicAttribute, .directMethodReferenceAttribute, .partialApplyForwarder,
            .partialApplyObjCForwarder, .outlinedVariable, .mergedFunction, .dynamicallyReplaceableFunctionImpl,
            .dynamicallyReplaceableFunctionKey, .dynamicallyReplaceableFunctionVar, .asyncFunctionPointer,
            .asyncAwaitResumePartialFunction, .asyncSuspendResumePartialFunction:
            return true
        default: return false
        }
    }

    // MARK: Popping typed operands

    mutating func popModule() -> SwiftNodeID? {
        if let identifier = pop(.identifier) { return tree.copy(identifier, as: .module) }
        return pop(.module)
    }

    mutating func popContext() -> SwiftNodeID? {
        if let module = popModule() { return module }
        if let type = pop(.type) {
            guard tree.childCount(type) == 1 else { return nil }
            let child = tree.child(type, 0)
            return Self.isContext(tree.kind(child)) ? child : nil
        }
        return pop(where: Self.isContext)
    }

    mutating func popTypeAndGetChild() -> SwiftNodeID? {
        guard let type = pop(.type), tree.childCount(type) == 1 else { return nil }
        return tree.child(type, 0)
    }

    mutating func popTypeAndGetAnyGeneric() -> SwiftNodeID? {
        guard let child = popTypeAndGetChild(), Self.isAnyGeneric(tree.kind(child)) else { return nil }
        return child
    }

    func isProtocolNode(_ node: SwiftNodeID) -> Bool {
        switch tree.kind(node) {
        case .type: return tree.childCount(node) > 0 && isProtocolNode(tree.child(node, 0))
        case .protocol_: return true
        default: return false
        }
    }

    mutating func popProtocol() -> SwiftNodeID? {
        if let type = pop(.type) {
            guard tree.childCount(type) >= 1, isProtocolNode(type) else { return nil }
            return type
        }
        let name = pop(where: Self.isDeclName)
        let context = popContext()
        return makeType(make(.protocol_, context, name))
    }

    mutating func popTypeList() -> SwiftNodeID? {
        let list = tree.make(.typeList)
        if pop(.emptyList) == nil {
            var isFirst = false
            repeat {
                isFirst = pop(.firstElementMarker) != nil
                guard let type = pop(.type) else { return nil }
                tree.addChild(type, to: list)
            } while !isFirst
            tree.reverseChildren(of: list)
        }
        return list
    }

    // MARK: Substitutions

    mutating func demangleMultiSubstitutions() -> SwiftNodeID? {
        var repeatCount = -1
        while true {
            let character = next()
            if character == 0 { return nil }
            if isLowerLetter(character) {
                guard let node = pushMultiSubstitutions(repeatCount, Int(character - UInt8(ascii: "a"))) else {
                    return nil
                }
                push(node)
                repeatCount = -1
                continue
            }
            if isUpperLetter(character) {
                return pushMultiSubstitutions(repeatCount, Int(character - UInt8(ascii: "A")))
            }
            if character == UInt8(ascii: "_") {
                return substitution(repeatCount + 27)
            }
            pushBack()
            guard let count = demangleNatural() else { return nil }
            repeatCount = count
        }
    }

    private mutating func pushMultiSubstitutions(_ repeatCount: Int, _ index: Int) -> SwiftNodeID? {
        guard let node = substitution(index), repeatCount <= Self.maximumRepeatCount else { return nil }
        var count = repeatCount
        while count > 1 {
            push(node)
            count -= 1
        }
        return node
    }

    mutating func demangleStandardSubstitution() -> SwiftNodeID? {
        let character = next()
        switch character {
        case UInt8(ascii: "o"): return tree.make(.module, string: "__C")
        case UInt8(ascii: "C"): return tree.make(.module, string: "__C_Synthesized")
        case UInt8(ascii: "g"):
            let wrapped = pop(.type)
            let optional = makeType(
                make(.boundGenericEnum, makeStandardType(.enum_, "Optional"), make(.typeList, wrapped)))
            addSubstitution(optional)
            return optional
        default:
            pushBack()
            let repeatCount = demangleNatural() ?? 0
            guard repeatCount <= Self.maximumRepeatCount else { return nil }
            let isConcurrency = nextIf("c")
            guard let node = makeStandardSubstitution(next(), concurrency: isConcurrency) else { return nil }
            var count = repeatCount
            while count > 1 {
                push(node)
                count -= 1
            }
            return node
        }
    }

    private mutating func makeStandardType(_ kind: SwiftNodeKind, _ name: StaticString) -> SwiftNodeID? {
        let module = tree.make(.module, string: "Swift")
        let identifier = tree.make(.identifier, string: name)
        return makeType(make(kind, module, identifier))
    }

    private mutating func makeStandardSubstitution(_ character: UInt8, concurrency: Bool) -> SwiftNodeID? {
        guard let (kind, name) = StandardSubstitutions.lookUp(character, concurrency: concurrency) else {
            return nil
        }
        return makeStandardType(kind, name)
    }
}
