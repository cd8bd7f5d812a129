/// Types: builtin, nominal and bound generic types, tuples, function types, metatypes, existentials, generics.
extension SwiftSymbolParser {
    mutating func demangleBuiltinType() -> SwiftNodeID? {
        let name: StaticString
        switch next() {
        case UInt8(ascii: "b"): name = "Builtin.BridgeObject"
        case UInt8(ascii: "B"): name = "Builtin.UnsafeValueBuffer"
        case UInt8(ascii: "e"): name = "Builtin.Executor"
        case UInt8(ascii: "I"): name = "Builtin.IntLiteral"
        case UInt8(ascii: "O"): name = "Builtin.UnknownObject"
        case UInt8(ascii: "o"): name = "Builtin.NativeObject"
        case UInt8(ascii: "p"): name = "Builtin.RawPointer"
        case UInt8(ascii: "j"): name = "Builtin.Job"
        case UInt8(ascii: "D"): name = "Builtin.DefaultActorStorage"
        case UInt8(ascii: "c"): name = "Builtin.RawUnsafeContinuation"
        case UInt8(ascii: "t"): name = "Builtin.SILToken"
        case UInt8(ascii: "w"): name = "Builtin.Word"
        case UInt8(ascii: "f"): return makeSizedBuiltin("Builtin.FPIEEE")
        case UInt8(ascii: "i"): return makeSizedBuiltin("Builtin.Int")
        case UInt8(ascii: "v"):
            guard let index = demangleIndex(), index - 1 > 0, index - 1 <= 4096,
                let element = popTypeAndGetChild(), tree.kind(element) == .builtinTypeName
            else { return nil }
            let prefix = Array("Builtin.".utf8)
            let elementName = Array(tree.text[tree.textRange(element)])
            guard elementName.starts(with: prefix) else { return nil }
            let start = tree.textCount
            tree.appendText("Builtin.Vec\(index - 1)x".utf8)
            tree.appendText(elementName[prefix.count...])
            return makeType(tree.make(.builtinTypeName, textFrom: start))
        default: return nil
        }
        return makeType(tree.make(.builtinTypeName, string: name))
    }

    private mutating func makeSizedBuiltin(_ prefix: StaticString) -> SwiftNodeID? {
        guard let index = demangleIndex(), index - 1 > 0, index - 1 <= 4096 else { return nil }
        let start = tree.textCount
        prefix.withUTF8Buffer { tree.appendText($0) }
        tree.appendText(String(index - 1).utf8)
        return makeType(tree.make(.builtinTypeName, textFrom: start))
    }

    mutating func demangleAnyGenericType(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let name = pop(where: Self.isDeclName)
        let context = popContext()
        let type = makeType(make(kind, context, name))
        addSubstitution(type)
        return type
    }

    mutating func demangleExtensionContext() -> SwiftNodeID? {
        let signature = pop(.dependentGenericSignature)
        let module = popModule()
        let type = popTypeAndGetAnyGeneric()
        var extensionNode = make(.extension_, module, type)
        if let signature { extensionNode = add(signature, to: extensionNode) }
        return extensionNode
    }

    mutating func demangleTypeMangling() -> SwiftNodeID? {
        let type = pop(.type)
        let labels = popFunctionParameterLabels(type)
        let mangling = tree.make(.typeMangling)
        add(labels, to: mangling)
        return add(type, to: mangling)
    }

    // MARK: Function types

    mutating func popFunctionType(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let function = tree.make(kind)
        add(pop(.globalActorFunctionType), to: function)
        add(pop { $0 == .throwsAnnotation || $0 == .typedThrowsAnnotation }, to: function)
        add(pop(.concurrentFunctionType), to: function)
        add(pop(.asyncAnnotation), to: function)
        var result = add(popFunctionParameters(.argumentTuple), to: function)
        result = add(popFunctionParameters(.returnType), to: result)
        return makeType(result)
    }

    private mutating func popFunctionParameters(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        let parameters: SwiftNodeID?
        if pop(.emptyList) != nil {
            parameters = makeType(tree.make(.tuple))
        } else {
            parameters = pop(.type)
        }
        return make(kind, parameters)
    }

    /// The argument labels of a function type's parameters, when the mangling lists them (`y` for none, else one
    /// identifier or `_` per parameter, before the name).
    mutating func popFunctionParameterLabels(_ type: SwiftNodeID?) -> SwiftNodeID? {
        if pop(.emptyList) != nil { return tree.make(.labelList) }
        guard let type, tree.kind(type) == .type, tree.childCount(type) > 0 else { return nil }
        var function = tree.child(type, 0)
        if tree.kind(function) == .dependentGenericType {
            guard tree.childCount(function) > 1, tree.childCount(tree.child(function, 1)) > 0 else { return nil }
            function = tree.child(tree.child(function, 1), 0)
        }
        guard tree.kind(function) == .functionType || tree.kind(function) == .noEscapeFunctionType else {
            return nil
        }
        // The annotations before the parameters, in the order `popFunctionType` adds them.
        var first = 0
        func skip(_ kind: SwiftNodeKind, or other: SwiftNodeKind? = nil) {
            guard first < tree.childCount(function) else { return }
            let found = tree.kind(tree.child(function, first))
            if found == kind || found == other { first += 1 }
        }
        skip(.globalActorFunctionType)
        skip(.throwsAnnotation, or: .typedThrowsAnnotation)
        skip(.concurrentFunctionType)
        skip(.asyncAnnotation)
        guard first < tree.childCount(function) else { return nil }
        let argumentTuple = tree.child(function, first)
        guard tree.kind(argumentTuple) == .argumentTuple, tree.childCount(argumentTuple) > 0 else { return nil }
        let parametersType = tree.child(argumentTuple, 0)
        guard tree.childCount(parametersType) > 0 else { return nil }
        let parameters = tree.child(parametersType, 0)
        let parameterCount = tree.kind(parameters) == .tuple ? tree.childCount(parameters) : 1
        if parameterCount == 0 { return nil }

        let labels = tree.make(.labelList)
        var hasLabels = false
        for _ in 0..<parameterCount {
            guard let label = pop() else { return nil }
            let kind = tree.kind(label)
            guard kind == .identifier || kind == .firstElementMarker else { return nil }
            tree.addChild(label, to: labels)
            hasLabels = hasLabels || kind != .firstElementMarker
        }
        if !hasLabels { return tree.make(.labelList) }
        tree.reverseChildren(of: labels)
        return labels
    }

    mutating func popTuple() -> SwiftNodeID? {
        let tuple = tree.make(.tuple)
        if pop(.emptyList) == nil {
            var isFirst = false
            repeat {
                isFirst = pop(.firstElementMarker) != nil
                let element = tree.make(.tupleElement)
                add(pop(.variadicMarker), to: element)
                if let name = pop(.identifier) {
                    tree.addChild(tree.copy(name, as: .tupleElementName), to: element)
                }
                guard let type = pop(.type) else { return nil }
                tree.addChild(type, to: element)
                tree.addChild(element, to: tuple)
            } while !isFirst
            tree.reverseChildren(of: tuple)
        }
        return makeType(tuple)
    }

    // MARK: Bound generics

    mutating func demangleBoundGenericType() -> SwiftNodeID? {
        var typeLists: [SwiftNodeID] = []
        guard demangleBoundGenerics(&typeLists) else { return nil }
        guard let nominal = popTypeAndGetAnyGeneric(),
            let bound = demangleBoundGenericArguments(nominal, typeLists, 0)
        else { return nil }
        let type = makeType(bound)
        addSubstitution(type)
        return type
    }

    /// The type lists of a bound generic type, innermost last. Retroactive conformances are declined.
    mutating func demangleBoundGenerics(_ typeLists: inout [SwiftNodeID]) -> Bool {
        while true {
            let list = tree.make(.typeList)
            typeLists.append(list)
            while let type = pop(.type) { tree.addChild(type, to: list) }
            tree.reverseChildren(of: list)
            if pop(.emptyList) != nil { return true }
            if pop(.firstElementMarker) == nil { return false }
        }
    }

    private func consumesGenericArguments(_ kind: SwiftNodeKind) -> Bool {
        switch kind {
        case .variable, .subscript_, .implicitClosure, .explicitClosure, .defaultArgumentInitializer, .initializer,
            .propertyWrapperBackingInitializer, .propertyWrapperInitFromProjectedValue, .static_:
            return false
        default: return true
        }
    }

    mutating func demangleBoundGenericArguments(
        _ nominal: SwiftNodeID, _ typeLists: [SwiftNodeID], _ listIndex: Int
    ) -> SwiftNodeID? {
        guard listIndex < typeLists.count, tree.childCount(nominal) > 0 else { return nil }
        var nominal = nominal
        var listIndex = listIndex
        let context = tree.child(nominal, 0)
        let consumes = consumesGenericArguments(tree.kind(nominal))
        let arguments = typeLists[listIndex]
        if consumes { listIndex += 1 }

        if listIndex < typeLists.count {
            var boundParent: SwiftNodeID?
            if tree.kind(context) == .extension_ {
                guard tree.childCount(context) >= 2 else { return nil }
                let parent = demangleBoundGenericArguments(tree.child(context, 1), typeLists, listIndex)
                boundParent = make(.extension_, tree.child(context, 0), parent)
                if tree.childCount(context) == 3 { add(tree.child(context, 2), to: boundParent) }
            } else {
                boundParent = demangleBoundGenericArguments(context, typeLists, listIndex)
            }
            guard let newNominal = make(tree.kind(nominal), boundParent) else { return nil }
            for position in 1..<max(1, tree.childCount(nominal)) {
                tree.addChild(tree.child(nominal, position), to: newNominal)
            }
            nominal = newNominal
        }
        if !consumes || tree.childCount(arguments) == 0 { return nominal }

        let kind: SwiftNodeKind
        switch tree.kind(nominal) {
        case .class_: kind = .boundGenericClass
        case .structure: kind = .boundGenericStructure
        case .enum_: kind = .boundGenericEnum
        case .protocol_: kind = .boundGenericProtocol
        case .otherNominalType: kind = .boundGenericOtherNominalType
        case .typeAlias: kind = .boundGenericTypeAlias
        case .function, .constructor: return make(.boundGenericFunction, nominal, arguments)
        default: return nil
        }
        return make(kind, makeType(nominal), arguments)
    }

    // MARK: Names

    /// The operator character each lower-case letter of an operator's mangled name stands for (space: none).
    private static let operatorCharacters = Array("& @/= >    <*!|+?%-~   ^ .".utf8)

    mutating func demangleOperatorIdentifier() -> SwiftNodeID? {
        guard let identifier = pop(.identifier) else { return nil }
        let start = tree.textCount
        var operatorText: [UInt8] = []
        for byte in tree.text[tree.textRange(identifier)] {
            if byte >= 0x80 {
                operatorText.append(byte)
                continue
            }
            guard isLowerLetter(byte) else { return nil }
            let mapped = Self.operatorCharacters[Int(byte - UInt8(ascii: "a"))]
            guard mapped != UInt8(ascii: " ") else { return nil }
            operatorText.append(mapped)
        }
        tree.appendText(operatorText)
        switch next() {
        case UInt8(ascii: "i"): return tree.make(.infixOperator, textFrom: start)
        case UInt8(ascii: "p"): return tree.make(.prefixOperator, textFrom: start)
        case UInt8(ascii: "P"): return tree.make(.postfixOperator, textFrom: start)
        default: return nil
        }
    }

    mutating func demangleLocalIdentifier() -> SwiftNodeID? {
        if nextIf("L") {
            let discriminator = pop(.identifier)
            let name = pop(where: Self.isDeclName)
            return make(.privateDeclName, discriminator, name)
        }
        if nextIf("l") {
            return make(.privateDeclName, pop(.identifier))
        }
        let character = peek()
        if (character >= UInt8(ascii: "a") && character <= UInt8(ascii: "j"))
            || (character >= UInt8(ascii: "A") && character <= UInt8(ascii: "J"))
        {
            // Related entities (imported C declarations) are left to the runtime.
            return nil
        }
        let discriminator = demangleIndexAsNode()
        let name = pop(where: Self.isDeclName)
        return make(.localDeclName, discriminator, name)
    }

    // MARK: Special types and annotations

    mutating func demangleSpecialType() -> SwiftNodeID? {
        let character = next()
        switch character {
        case UInt8(ascii: "E"): return popFunctionType(.noEscapeFunctionType)
        case UInt8(ascii: "A"): return popFunctionType(.escapingAutoClosureType)
        case UInt8(ascii: "f"): return popFunctionType(.thinFunctionType)
        case UInt8(ascii: "K"): return popFunctionType(.autoClosureType)
        case UInt8(ascii: "U"): return popFunctionType(.uncurriedFunctionType)
        case UInt8(ascii: "C"): return popFunctionType(.cFunctionPointer)
        case UInt8(ascii: "o"): return makeType(make(.unowned, pop(.type)))
        case UInt8(ascii: "u"): return makeType(make(.unmanaged, pop(.type)))
        case UInt8(ascii: "w"): return makeType(make(.weak, pop(.type)))
        case UInt8(ascii: "D"): return makeType(make(.dynamicSelf, pop(.type)))
        case UInt8(ascii: "M"):
            let representation = demangleMetatypeRepresentation()
            let type = pop(.type)
            return makeType(make(.metatype, representation, type))
        case UInt8(ascii: "m"):
            let representation = demangleMetatypeRepresentation()
            let type = pop(.type)
            return makeType(make(.existentialMetatype, representation, type))
        case UInt8(ascii: "p"): return makeType(make(.existentialMetatype, pop(.type)))
        case UInt8(ascii: "c"):
            let superclass = pop(.type)
            let protocols = demangleProtocolList()
            return makeType(make(.protocolListWithClass, protocols, superclass))
        case UInt8(ascii: "l"): return makeType(make(.protocolListWithAnyObject, demangleProtocolList()))
        case UInt8(ascii: "Y"): return demangleAnyGenericType(.otherNominalType)
        case UInt8(ascii: "e"): return makeType(tree.make(.errorType))
        case UInt8(ascii: "S"):
            switch next() {
            case UInt8(ascii: "q"): return makeType(make(.sugaredOptional, pop(.type)))
            case UInt8(ascii: "a"): return makeType(make(.sugaredArray, pop(.type)))
            case UInt8(ascii: "D"):
                let value = pop(.type)
                let key = pop(.type)
                return makeType(make(.sugaredDictionary, key, value))
            case UInt8(ascii: "p"): return makeType(make(.sugaredParen, pop(.type)))
            default: return nil
            }
        default: return nil
        }
    }

    private mutating func demangleMetatypeRepresentation() -> SwiftNodeID? {
        switch next() {
        case UInt8(ascii: "t"): return tree.make(.metatypeRepresentation, string: "@thin")
        case UInt8(ascii: "T"): return tree.make(.metatypeRepresentation, string: "@thick")
        case UInt8(ascii: "o"): return tree.make(.metatypeRepresentation, string: "@objc_metatype")
        default: return nil
        }
    }

    mutating func demangleTypeAnnotation() -> SwiftNodeID? {
        switch next() {
        case UInt8(ascii: "a"): return tree.make(.asyncAnnotation)
        case UInt8(ascii: "b"): return tree.make(.concurrentFunctionType)
        case UInt8(ascii: "c"): return make(.globalActorFunctionType, popTypeAndGetChild())
        case UInt8(ascii: "i"): return makeType(make(.isolated, popTypeAndGetChild()))
        case UInt8(ascii: "K"): return make(.typedThrowsAnnotation, popTypeAndGetChild())
        case UInt8(ascii: "k"): return makeType(make(.noDerivative, popTypeAndGetChild()))
        case UInt8(ascii: "t"): return makeType(make(.compileTimeConst, popTypeAndGetChild()))
        default: return nil
        }
    }

    mutating func demangleProtocolList() -> SwiftNodeID? {
        let list = tree.make(.typeList)
        guard let protocolList = make(.protocolList, list) else { return nil }
        if pop(.emptyList) == nil {
            var isFirst = false
            repeat {
                isFirst = pop(.firstElementMarker) != nil
                guard let proto = popProtocol() else { return nil }
                tree.addChild(proto, to: list)
            } while !isFirst
            tree.reverseChildren(of: list)
        }
        return protocolList
    }
}
