/// Entities: functions, initializers, closures, variables, subscripts and their accessors; generic signatures.
extension SwiftSymbolParser {
    mutating func demanglePlainFunction() -> SwiftNodeID? {
        let signature = pop(.dependentGenericSignature)
        var type = popFunctionType(.functionType)
        let labels = popFunctionParameterLabels(type)
        if let signature {
            type = makeType(make(.dependentGenericType, signature, type))
        }
        let name = pop(where: Self.isDeclName)
        let context = popContext()
        if let labels { return make(.function, context, name, labels, type) }
        return make(.function, context, name, type)
    }

    mutating func demangleFunctionEntity() -> SwiftNodeID? {
        enum Operands { case none, typeAndMaybePrivateName, typeAndIndex, index }
        let operands: Operands
        let kind: SwiftNodeKind
        switch next() {
        case UInt8(ascii: "D"): (operands, kind) = (.none, .deallocator)
        case UInt8(ascii: "d"): (operands, kind) = (.none, .destructor)
        case UInt8(ascii: "E"): (operands, kind) = (.none, .iVarDestroyer)
        case UInt8(ascii: "e"): (operands, kind) = (.none, .iVarInitializer)
        case UInt8(ascii: "i"): (operands, kind) = (.none, .initializer)
        case UInt8(ascii: "C"): (operands, kind) = (.typeAndMaybePrivateName, .allocator)
        case UInt8(ascii: "c"): (operands, kind) = (.typeAndMaybePrivateName, .constructor)
        case UInt8(ascii: "U"): (operands, kind) = (.typeAndIndex, .explicitClosure)
        case UInt8(ascii: "u"): (operands, kind) = (.typeAndIndex, .implicitClosure)
        case UInt8(ascii: "A"): (operands, kind) = (.index, .defaultArgumentInitializer)
        case UInt8(ascii: "P"): (operands, kind) = (.none, .propertyWrapperBackingInitializer)
        case UInt8(ascii: "W"): (operands, kind) = (.none, .propertyWrapperInitFromProjectedValue)
        default: return nil
        }

        var nameOrIndex: SwiftNodeID?
        var parameterType: SwiftNodeID?
        var labels: SwiftNodeID?
        switch operands {
        case .none: break
        case .typeAndMaybePrivateName:
            nameOrIndex = pop(.privateDeclName)
            parameterType = pop(.type)
            labels = popFunctionParameterLabels(parameterType)
        case .typeAndIndex:
            nameOrIndex = demangleIndexAsNode()
            parameterType = pop(.type)
        case .index:
            nameOrIndex = demangleIndexAsNode()
        }
        var entity = make(kind, popContext())
        switch operands {
        case .none: break
        case .index:
            entity = add(nameOrIndex, to: entity)
        case .typeAndMaybePrivateName:
            add(labels, to: entity)
            entity = add(parameterType, to: entity)
            add(nameOrIndex, to: entity)
        case .typeAndIndex:
            entity = add(nameOrIndex, to: entity)
            entity = add(parameterType, to: entity)
        }
        return entity
    }

    mutating func demangleEntity(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let type = pop(.type)
        let labels = popFunctionParameterLabels(type)
        let name = pop(where: Self.isDeclName)
        let context = popContext()
        if let labels { return make(kind, context, name, labels, type) }
        return make(kind, context, name, type)
    }

    mutating func demangleVariable() -> SwiftNodeID? {
        demangleAccessor(demangleEntity(.variable))
    }

    mutating func demangleSubscript() -> SwiftNodeID? {
        let privateName = pop(.privateDeclName)
        let type = pop(.type)
        let labels = popFunctionParameterLabels(type)
        let context = popContext()
        guard type != nil else { return nil }
        var subscriptNode = make(.subscript_, context)
        add(labels, to: subscriptNode)
        subscriptNode = add(type, to: subscriptNode)
        add(privateName, to: subscriptNode)
        return demangleAccessor(subscriptNode)
    }

    private mutating func demangleAccessor(_ storage: SwiftNodeID?) -> SwiftNodeID? {
        let kind: SwiftNodeKind
        switch next() {
        case UInt8(ascii: "m"): kind = .materializeForSet
        case UInt8(ascii: "s"): kind = .setter
        case UInt8(ascii: "g"): kind = .getter
        case UInt8(ascii: "G"): kind = .globalGetter
        case UInt8(ascii: "w"): kind = .willSet
        case UInt8(ascii: "W"): kind = .didSet
        case UInt8(ascii: "r"): kind = .readAccessor
        case UInt8(ascii: "M"): kind = .modifyAccessor
        case UInt8(ascii: "a"):
            switch next() {
            case UInt8(ascii: "O"): kind = .owningMutableAddressor
            case UInt8(ascii: "o"): kind = .nativeOwningMutableAddressor
            case UInt8(ascii: "P"): kind = .nativePinningMutableAddressor
            case UInt8(ascii: "u"): kind = .unsafeMutableAddressor
            default: return nil
            }
        case UInt8(ascii: "l"):
            switch next() {
            case UInt8(ascii: "O"): kind = .owningAddressor
            case UInt8(ascii: "o"): kind = .nativeOwningAddressor
            case UInt8(ascii: "p"): kind = .nativePinningAddressor
            case UInt8(ascii: "u"): kind = .unsafeAddressor
            default: return nil
            }
        case UInt8(ascii: "p"): return storage
        default: return nil
        }
        return make(kind, storage)
    }

    // MARK: Generic signatures

    mutating func demangleGenericSignature(hasParameterCounts: Bool) -> SwiftNodeID? {
        let signature = tree.make(.dependentGenericSignature)
        if hasParameterCounts {
            while !nextIf("l") {
                var count = 0
                if !nextIf("z") {
                    guard let index = demangleIndex() else { return nil }
                    count = index + 1
                }
                tree.addChild(tree.make(.dependentGenericParamCount, index: UInt64(count)), to: signature)
            }
        } else {
            tree.addChild(tree.make(.dependentGenericParamCount, index: 1), to: signature)
        }
        let countOfCounts = tree.childCount(signature)
        while let requirement = pop(where: Self.isRequirement) {
            tree.addChild(requirement, to: signature)
        }
        tree.reverseChildren(of: signature, from: countOfCounts)
        return signature
    }

    mutating func demangleGenericRequirement() -> SwiftNodeID? {
        enum Subject { case generic, associated, compoundAssociated, substitution }
        enum Constraint { case conformance, baseClass, sameType, layout, inverse }
        let subject: Subject
        let constraint: Constraint
        switch next() {
        case UInt8(ascii: "c"): (constraint, subject) = (.baseClass, .associated)
        case UInt8(ascii: "C"): (constraint, subject) = (.baseClass, .compoundAssociated)
        case UInt8(ascii: "b"): (constraint, subject) = (.baseClass, .generic)
        case UInt8(ascii: "B"): (constraint, subject) = (.baseClass, .substitution)
        case UInt8(ascii: "t"): (constraint, subject) = (.sameType, .associated)
        case UInt8(ascii: "T"): (constraint, subject) = (.sameType, .compoundAssociated)
        case UInt8(ascii: "s"): (constraint, subject) = (.sameType, .generic)
        case UInt8(ascii: "S"): (constraint, subject) = (.sameType, .substitution)
        case UInt8(ascii: "m"): (constraint, subject) = (.layout, .associated)
        case UInt8(ascii: "M"): (constraint, subject) = (.layout, .compoundAssociated)
        case UInt8(ascii: "l"): (constraint, subject) = (.layout, .generic)
        case UInt8(ascii: "L"): (constraint, subject) = (.layout, .substitution)
        case UInt8(ascii: "p"): (constraint, subject) = (.conformance, .associated)
        case UInt8(ascii: "P"): (constraint, subject) = (.conformance, .compoundAssociated)
        case UInt8(ascii: "Q"): (constraint, subject) = (.conformance, .substitution)
        case UInt8(ascii: "i"): (constraint, subject) = (.inverse, .generic)
        case UInt8(ascii: "I"): (constraint, subject) = (.inverse, .substitution)
        case UInt8(ascii: "d"), UInt8(ascii: "z"), UInt8(ascii: "_"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            pushBack()
            (constraint, subject) = (.conformance, .generic)
        default:
            // Inverse requirements on associated types, same-shape, value and pack requirements are left to the
            // runtime.
            return nil
        }
        // An inverse requirement (`~Copyable`) names its protocol by index, before its subject.
        var inverseProtocol: SwiftNodeID?
        if constraint == .inverse {
            guard let index = demangleIndexAsNode() else { return nil }
            inverseProtocol = index
        }

        let constrained: SwiftNodeID?
        switch subject {
        case .generic:
            constrained = makeType(demangleGenericParamIndex())
        case .associated:
            constrained = demangleAssociatedTypeSimple(base: demangleGenericParamIndex())
            addSubstitution(constrained)
        case .compoundAssociated:
            constrained = demangleAssociatedTypeCompound(base: demangleGenericParamIndex())
            addSubstitution(constrained)
        case .substitution:
            constrained = pop(.type)
        }

        switch constraint {
        case .inverse:
            return make(.dependentGenericInverseConformanceRequirement, constrained, inverseProtocol)
        case .conformance:
            return make(.dependentGenericConformanceRequirement, constrained, popProtocol())
        case .baseClass:
            return make(.dependentGenericConformanceRequirement, constrained, pop(.type))
        case .sameType:
            return make(.dependentGenericSameTypeRequirement, constrained, pop(.type))
        case .layout:
            let layout = next()
            var size: SwiftNodeID?
            var alignment: SwiftNodeID?
            switch layout {
            case UInt8(ascii: "U"), UInt8(ascii: "R"), UInt8(ascii: "N"), UInt8(ascii: "C"), UInt8(ascii: "D"),
                UInt8(ascii: "T"):
                break
            case UInt8(ascii: "E"), UInt8(ascii: "M"):
                guard let sizeNode = demangleIndexAsNode() else { return nil }
                size = sizeNode
                alignment = demangleIndexAsNode()
            case UInt8(ascii: "e"), UInt8(ascii: "m"):
                guard let sizeNode = demangleIndexAsNode() else { return nil }
                size = sizeNode
            default:
                return nil
            }
            let name = tree.make(.identifier, text: CollectionOfOne(layout))
            let requirement = make(.dependentGenericLayoutRequirement, constrained, name)
            add(size, to: requirement)
            add(alignment, to: requirement)
            return requirement
        }
    }

    mutating func dependentGenericParamType(depth: Int?, index: Int?) -> SwiftNodeID? {
        guard let depth, let index, depth >= 0, index >= 0 else { return nil }
        let parameter = tree.make(.dependentGenericParamType)
        tree.addChild(tree.make(.index, index: UInt64(depth)), to: parameter)
        tree.addChild(tree.make(.index, index: UInt64(index)), to: parameter)
        return parameter
    }

    mutating func demangleGenericParamIndex() -> SwiftNodeID? {
        if nextIf("d") {
            guard let depth = demangleIndex() else { return nil }
            return dependentGenericParamType(depth: depth + 1, index: demangleIndex())
        }
        if nextIf("z") { return dependentGenericParamType(depth: 0, index: 0) }
        guard let index = demangleIndex() else { return nil }
        return dependentGenericParamType(depth: 0, index: index + 1)
    }

    // MARK: Archetypes and associated types

    mutating func demangleArchetype() -> SwiftNodeID? {
        switch next() {
        case UInt8(ascii: "a"):
            let identifier = pop(.identifier)
            let archetype = popTypeAndGetChild()
            let associated = makeType(make(.associatedTypeRef, archetype, identifier))
            addSubstitution(associated)
            return associated
        case UInt8(ascii: "r"):
            return makeType(tree.make(.opaqueReturnType))
        case UInt8(ascii: "x"):
            let type = demangleAssociatedTypeSimple(base: nil)
            addSubstitution(type)
            return type
        case UInt8(ascii: "X"):
            let type = demangleAssociatedTypeCompound(base: nil)
            addSubstitution(type)
            return type
        case UInt8(ascii: "y"):
            let type = demangleAssociatedTypeSimple(base: demangleGenericParamIndex())
            addSubstitution(type)
            return type
        case UInt8(ascii: "Y"):
            let type = demangleAssociatedTypeCompound(base: demangleGenericParamIndex())
            addSubstitution(type)
            return type
        case UInt8(ascii: "z"):
            let type = demangleAssociatedTypeSimple(base: dependentGenericParamType(depth: 0, index: 0))
            addSubstitution(type)
            return type
        case UInt8(ascii: "Z"):
            let type = demangleAssociatedTypeCompound(base: dependentGenericParamType(depth: 0, index: 0))
            addSubstitution(type)
            return type
        default:
            // Opaque types and packs are left to the runtime.
            return nil
        }
    }

    private mutating func demangleAssociatedTypeSimple(base: SwiftNodeID?) -> SwiftNodeID? {
        let name = popAssociatedTypeName()
        let baseType = base != nil ? makeType(base) : pop(.type)
        return makeType(make(.dependentMemberType, baseType, name))
    }

    private mutating func demangleAssociatedTypeCompound(base: SwiftNodeID?) -> SwiftNodeID? {
        var names: [SwiftNodeID] = []
        var isFirst = false
        repeat {
            isFirst = pop(.firstElementMarker) != nil
            guard let name = popAssociatedTypeName() else { return nil }
            names.append(name)
        } while !isFirst
        var baseType = base != nil ? makeType(base) : pop(.type)
        while let name = names.popLast() {
            baseType = makeType(make(.dependentMemberType, baseType, name))
        }
        return baseType
    }

    mutating func popAssociatedTypePath() -> SwiftNodeID? {
        let path = tree.make(.assocTypePath)
        var isFirst = false
        repeat {
            isFirst = pop(.firstElementMarker) != nil
            guard let name = popAssociatedTypeName() else { return nil }
            tree.addChild(name, to: path)
        } while !isFirst
        tree.reverseChildren(of: path)
        return path
    }

    private mutating func popAssociatedTypeName() -> SwiftNodeID? {
        let proto = pop(.type)
        if let proto, !isProtocolNode(proto) { return nil }
        let name = make(.dependentAssociatedTypeRef, pop(.identifier))
        add(proto, to: name)
        return name
    }
}
