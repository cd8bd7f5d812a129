/// Types, as the simplified form writes them: sugar for optionals, arrays and dictionaries, generic parameters as
/// `A`, `B`, `A1`, function types as their parameters only (with their types when asked).
extension SwiftNamePrinter {
    mutating func printType(_ node: SwiftNodeID, kind: SwiftNodeKind) {
        switch kind {
        case .typeMangling:
            guard let first = tree.childIfPresent(node, 0) else { return invalidate() }
            if tree.kind(first) == .labelList {
                guard let type = tree.childIfPresent(node, 1), let function = tree.childIfPresent(type, 0) else {
                    return invalidate()
                }
                printFunctionType(first, function)
            } else {
                print(first)
            }
        case .functionType, .uncurriedFunctionType, .noEscapeFunctionType, .autoClosureType,
            .escapingAutoClosureType, .thinFunctionType, .cFunctionPointer:
            printFunctionType(nil, node)
        case .argumentTuple:
            printFunctionParameters(nil, node, showsTypes: options.showsArgumentTypes)
        case .tuple:
            write("(")
            printChildren(node, separator: ", ")
            write(")")
        case .tupleElement:
            if let label = tree.firstChild(node, ofKind: .tupleElementName) {
                writeText(of: label)
                write(": ")
            }
            guard let type = tree.firstChild(node, ofKind: .type) else { return invalidate() }
            print(type)
            if tree.firstChild(node, ofKind: .variadicMarker) != nil { write("...") }
        case .returnType:
            write(" -> ")
            printChildren(node)
        case .throwsAnnotation:
            write(" throws")
        case .typedThrowsAnnotation:
            write(" throws(")
            printFirstChild(node)
            write(")")
        case .globalActorFunctionType:
            guard let actor = tree.childIfPresent(node, 0) else { return invalidate() }
            write("@")
            print(actor)
            write(" ")
        case .boundGenericClass, .boundGenericStructure, .boundGenericEnum, .boundGenericProtocol,
            .boundGenericOtherNominalType, .boundGenericTypeAlias:
            printBoundGeneric(node, kind: kind)
        case .dynamicSelf:
            write("Self")
        case .metatype:
            printMetatype(node)
        case .existentialMetatype:
            var position = 0
            if tree.childCount(node) == 2 {
                print(tree.child(node, 0))
                write(" ")
                position = 1
            }
            guard let type = tree.childIfPresent(node, position) else { return invalidate() }
            print(type)
            write(".Type")
        case .associatedTypeRef:
            guard has(node, children: 2) else { return }
            print(tree.child(node, 0))
            write(".")
            writeText(of: tree.child(node, 1))
        case .protocolList:
            guard let list = tree.childIfPresent(node, 0) else { return invalidate() }
            if tree.childCount(list) == 0 {
                write("Any")
            } else {
                printChildren(list, separator: " & ")
            }
        case .protocolListWithAnyObject:
            guard let protocols = tree.childIfPresent(node, 0), let list = tree.childIfPresent(protocols, 0) else {
                return invalidate()
            }
            if tree.childCount(list) > 0 {
                printChildren(list, separator: " & ")
                write(" & ")
            }
            // Entities are qualified even in the simplified form, where modules are not shown otherwise.
            write("Swift.AnyObject")
        case .dependentGenericSignature:
            printGenericSignature(node)
        case .dependentGenericParamType:
            guard has(node, children: 2) else { return }
            writeGenericParameterName(depth: tree.index(tree.child(node, 0)), index: tree.index(tree.child(node, 1)))
        case .dependentGenericConformanceRequirement, .dependentGenericSameTypeRequirement:
            guard has(node, children: 2) else { return }
            print(tree.child(node, 0))
            write(kind == .dependentGenericSameTypeRequirement ? " == " : ": ")
            print(tree.child(node, 1))
        case .dependentGenericLayoutRequirement:
            printLayoutRequirement(node)
        case .dependentGenericInverseConformanceRequirement:
            guard has(node, children: 2) else { return }
            print(tree.child(node, 0))
            // The invertible protocols by their bit (`swift/ABI/InvertibleProtocols.def`); always qualified.
            switch tree.index(tree.child(node, 1)) {
            case 0: write(": ~Swift.Copyable")
            case 1: write(": ~Swift.Escapable")
            default: invalidate()
            }
        case .genericSpecializationParam:
            printFirstChild(node)
            for position in 1..<max(1, tree.childCount(node)) {
                write(position == 1 ? " with " : " and ")
                print(tree.child(node, position))
            }
        case .dependentGenericType:
            guard has(node, children: 2) else { return }
            print(tree.child(node, 0))
            if needsSpaceBeforeType(tree.child(node, 1)) { write(" ") }
            print(tree.child(node, 1))
        case .dependentMemberType:
            guard has(node, children: 2) else { return }
            print(tree.child(node, 0))
            write(".")
            print(tree.child(node, 1))
        case .dependentAssociatedTypeRef:
            guard let name = tree.childIfPresent(node, 0) else { return invalidate() }
            if let proto = tree.childIfPresent(node, 1) {
                print(proto)
                write(".")
            }
            print(name)
        case .implFunctionType:
            printImplFunctionType(node)
        case .implConvention, .implFunctionAttribute, .implFunctionConventionName:
            writeText(of: node)
        case .implEscaping:
            write("@escaping")
        case .implParameter, .implResult:
            printChildren(node, separator: " ")
        case .implErrorResult:
            write("@error ")
            printChildren(node, separator: " ")
        case .sugaredOptional:
            guard let type = tree.childIfPresent(node, 0) else { return invalidate() }
            printOptional(type)
        case .sugaredArray:
            guard has(node, children: 1) else { return }
            printArray(of: tree.child(node, 0))
        case .sugaredDictionary:
            guard has(node, children: 2) else { return }
            printDictionary(tree.child(node, 0), tree.child(node, 1))
        case .sugaredParen:
            write("(")
            printFirstChild(node)
            write(")")
        default:
            // A kind whose printing this printer does not mirror: the runtime's demangler prints it.
            invalidate()
        }
    }

    // MARK: Function types

    /// A function type, with its convention first: an entity's type with argument labels comes here without passing
    /// through ``printType(_:kind:)``.
    mutating func printFunctionType(_ labels: SwiftNodeID?, _ node: SwiftNodeID) {
        let count = tree.childCount(node)
        guard count >= 2 else { return invalidate() }
        switch tree.kind(node) {
        case .autoClosureType, .escapingAutoClosureType: write("@autoclosure ")
        case .thinFunctionType: write("@convention(thin) ")
        case .cFunctionPointer: write("@convention(c) ")
        default: break
        }
        let argumentIndex = count - 2
        var start = 0
        if tree.kind(tree.child(node, start)) == .globalActorFunctionType {
            print(tree.child(node, start))
            start += 1
        }
        var throwsNode: SwiftNodeID?
        if tree.kind(tree.child(node, start)) == .throwsAnnotation
            || tree.kind(tree.child(node, start)) == .typedThrowsAnnotation
        {
            throwsNode = tree.child(node, start)
            start += 1
        }
        var isSendable = false
        if tree.kind(tree.child(node, start)) == .concurrentFunctionType {
            isSendable = true
            start += 1
        }
        var isAsync = false
        if tree.kind(tree.child(node, start)) == .asyncAnnotation {
            isAsync = true
            start += 1
        }
        guard start == argumentIndex else { return invalidate() }
        if isSendable { write("@Sendable ") }
        printFunctionParameters(labels, tree.child(node, argumentIndex), showsTypes: options.showsArgumentTypes)
        // Symbol files show parameter types only: no effects, no result type.
        guard options.showsResultTypes else { return }
        if isAsync { write(" async") }
        if let throwsNode { print(throwsNode) }
        print(tree.child(node, argumentIndex + 1))
    }

    private mutating func printFunctionParameters(_ labels: SwiftNodeID?, _ node: SwiftNodeID, showsTypes: Bool) {
        guard tree.kind(node) == .argumentTuple, let parametersType = tree.childIfPresent(node, 0),
            let parameters = tree.childIfPresent(parametersType, 0)
        else { return invalidate() }
        if tree.kind(parameters) != .tuple {
            if showsTypes {
                write("(")
                print(parameters)
                write(")")
            } else {
                write("(_:)")
            }
            return
        }
        let hasLabels = labels.map { tree.childCount($0) > 0 } ?? false
        write("(")
        let count = tree.childCount(parameters)
        for position in 0..<count {
            let parameter = tree.child(parameters, position)
            if let labels, hasLabels {
                guard let label = tree.childIfPresent(labels, position) else { return invalidate() }
                if tree.kind(label) == .identifier { writeText(of: label) } else { write("_") }
                write(":")
            } else if !showsTypes {
                if let label = tree.firstChild(parameter, ofKind: .tupleElementName) {
                    writeText(of: label)
                    write(":")
                } else {
                    write("_:")
                }
            }
            if hasLabels && showsTypes { write(" ") }
            if showsTypes { print(parameter) }
            if showsTypes && position + 1 < count { write(", ") }
        }
        write(")")
    }

    private mutating func printImplFunctionType(_ node: SwiftNodeID) {
        enum State: Int { case attributes, inputs, results }
        var state = State.attributes
        func transition(to newState: State, _ printer: inout SwiftNamePrinter) {
            while state.rawValue < newState.rawValue {
                switch state {
                case .attributes: printer.write("(")
                case .inputs: printer.write(") -> (")
                case .results: break
                }
                state = State(rawValue: state.rawValue + 1)!
            }
        }
        for position in 0..<tree.childCount(node) {
            let child = tree.child(node, position)
            switch tree.kind(child) {
            case .implParameter:
                if state == .inputs { write(", ") }
                transition(to: .inputs, &self)
                print(child)
            case .implResult, .implErrorResult, .implYield:
                if tree.kind(child) == .implYield { return invalidate() }
                if state == .results { write(", ") }
                transition(to: .results, &self)
                print(child)
            default:
                guard state == .attributes else { return invalidate() }
                print(child)
                write(" ")
            }
        }
        transition(to: .results, &self)
        write(")")
    }

    // MARK: Nominal types

    private mutating func printBoundGeneric(_ node: SwiftNodeID, kind: SwiftNodeKind) {
        let count = tree.childCount(node)
        guard count >= 2 else { return }
        if count != 2 || !options.synthesizesSugar || kind == .boundGenericClass {
            return printBoundGenericWithoutSugar(node)
        }
        if kind == .boundGenericProtocol {
            printChildren(tree.child(node, 1))
            write(" as ")
            print(tree.child(node, 0))
            return
        }
        let arguments = tree.child(node, 1)
        switch sugar(node, kind: kind) {
        case .optional, .implicitlyUnwrappedOptional:
            guard let type = tree.childIfPresent(arguments, 0) else { return invalidate() }
            printOptional(type, implicitlyUnwrapped: sugar(node, kind: kind) == .implicitlyUnwrappedOptional)
        case .array:
            printArray(of: tree.child(arguments, 0))
        case .dictionary:
            printDictionary(tree.child(arguments, 0), tree.child(arguments, 1))
        case .none:
            printBoundGenericWithoutSugar(node)
        }
    }

    /// `[Element]`, for a bound `Swift.Array` and the debugger's sugared array alike.
    private mutating func printArray(of element: SwiftNodeID) {
        write("[")
        print(element)
        write("]")
    }

    /// `[Key : Value]`, for a bound `Swift.Dictionary` and the debugger's sugared dictionary alike.
    private mutating func printDictionary(_ key: SwiftNodeID, _ value: SwiftNodeID) {
        write("[")
        print(key)
        write(" : ")
        print(value)
        write("]")
    }

    private mutating func printOptional(_ type: SwiftNodeID, implicitlyUnwrapped: Bool = false) {
        let needsParentheses = !isSimpleType(type)
        if needsParentheses { write("(") }
        print(type)
        if needsParentheses { write(")") }
        write(implicitlyUnwrapped ? "!" : "?")
    }

    private mutating func printBoundGenericWithoutSugar(_ node: SwiftNodeID) {
        print(tree.child(node, 0))
        write("<")
        printChildren(tree.child(node, 1), separator: ", ")
        write(">")
    }

    private enum Sugar { case none, optional, implicitlyUnwrappedOptional, array, dictionary }

    private func sugar(_ node: SwiftNodeID, kind: SwiftNodeKind) -> Sugar {
        guard kind == .boundGenericEnum || kind == .boundGenericStructure,
            let unboundType = tree.childIfPresent(node, 0), let unbound = tree.childIfPresent(unboundType, 0),
            tree.childCount(unbound) == 2
        else { return .none }
        let module = tree.child(unbound, 0)
        let name = tree.child(unbound, 1)
        guard tree.kind(module) == .module, tree.textEquals(module, "Swift"), tree.kind(name) == .identifier else {
            return .none
        }
        let argumentCount = tree.childCount(tree.child(node, 1))
        if kind == .boundGenericEnum {
            if tree.textEquals(name, "Optional") && argumentCount == 1 { return .optional }
            if tree.textEquals(name, "ImplicitlyUnwrappedOptional") && argumentCount == 1 {
                return .implicitlyUnwrappedOptional
            }
            return .none
        }
        if tree.textEquals(name, "Array") && argumentCount == 1 { return .array }
        if tree.textEquals(name, "Dictionary") && argumentCount == 2 { return .dictionary }
        return .none
    }

    private mutating func printMetatype(_ node: SwiftNodeID) {
        var position = 0
        if tree.childCount(node) == 2 {
            print(tree.child(node, 0))
            write(" ")
            position = 1
        }
        guard let wrapper = tree.childIfPresent(node, position), let type = tree.childIfPresent(wrapper, 0) else {
            return invalidate()
        }
        let needsParentheses = !isSimpleType(type)
        if needsParentheses { write("(") }
        print(type)
        if needsParentheses { write(")") }
        switch tree.kind(type) {
        case .existentialMetatype, .protocolList, .protocolListWithClass, .protocolListWithAnyObject:
            write(".Protocol")
        default:
            write(".Type")
        }
    }

    /// The compiler's `isSimpleType`: types printed without parentheses before `?` and `.Type`.
    private func isSimpleType(_ node: SwiftNodeID) -> Bool {
        switch tree.kind(node) {
        case .associatedTypeRef, .boundGenericClass, .boundGenericEnum, .boundGenericStructure,
            .boundGenericProtocol, .boundGenericOtherNominalType, .boundGenericTypeAlias, .boundGenericFunction,
            .builtinTypeName, .class_, .dependentGenericType, .dependentMemberType, .dependentGenericParamType,
            .dynamicSelf, .enum_, .errorType, .existentialMetatype, .metatype, .metatypeRepresentation, .module,
            .tuple, .protocol_, .returnType, .structure, .otherNominalType, .tupleElementName, .typeAlias,
            .typeList, .labelList, .sugaredOptional, .sugaredArray, .sugaredDictionary, .sugaredParen:
            return true
        case .type:
            guard let inner = tree.childIfPresent(node, 0) else { return true }
            return isSimpleType(inner)
        case .protocolList:
            guard let list = tree.childIfPresent(node, 0) else { return false }
            return tree.childCount(list) <= 1
        case .protocolListWithAnyObject:
            guard let protocols = tree.childIfPresent(node, 0), let list = tree.childIfPresent(protocols, 0) else {
                return false
            }
            return tree.childCount(list) == 0
        default:
            return false
        }
    }

    // MARK: Generics

    private mutating func printGenericSignature(_ node: SwiftNodeID) {
        write("<")
        let count = tree.childCount(node)
        var level = 0
        while level < count && tree.kind(tree.child(node, level)) == .dependentGenericParamCount {
            if level != 0 { write("><") }
            let parameterCount = tree.index(tree.child(node, level))
            for index in 0..<parameterCount {
                if index != 0 { write(", ") }
                if index >= 128 {
                    write("...")
                    break
                }
                writeGenericParameterName(depth: UInt64(level), index: index)
            }
            level += 1
        }
        if level < count && options.showsWhereClauses {
            write(" where ")
            for position in level..<count {
                if position > level { write(", ") }
                print(tree.child(node, position))
            }
        }
        write(">")
    }

    private mutating func printLayoutRequirement(_ node: SwiftNodeID) {
        guard tree.childCount(node) >= 2, tree.textRange(tree.child(node, 1)).count == 1 else { return invalidate() }
        print(tree.child(node, 0))
        write(": ")
        switch tree.text[tree.textRange(tree.child(node, 1)).lowerBound] {
        case UInt8(ascii: "U"): write("_UnknownLayout")
        case UInt8(ascii: "R"): write("_RefCountedObject")
        case UInt8(ascii: "N"): write("_NativeRefCountedObject")
        case UInt8(ascii: "C"): write("AnyObject")
        case UInt8(ascii: "D"): write("_NativeClass")
        case UInt8(ascii: "T"), UInt8(ascii: "E"), UInt8(ascii: "e"): write("_Trivial")
        case UInt8(ascii: "M"), UInt8(ascii: "m"): write("_TrivialAtMost")
        default: return invalidate()
        }
        if tree.childCount(node) > 2 {
            write("(")
            print(tree.child(node, 2))
            if tree.childCount(node) > 3 {
                write(", ")
                print(tree.child(node, 3))
            }
            write(")")
        }
    }

    /// `A`, `B`, …, `Z`, `BA`, … for the index, then the depth when it is not 0 (`A1`).
    private mutating func writeGenericParameterName(depth: UInt64, index: UInt64) {
        var remaining = index
        repeat {
            write(byte: UInt8(ascii: "A") + UInt8(remaining % 26))
            remaining /= 26
        } while remaining > 0
        if depth != 0 { write(number: depth) }
    }
}
