/// Entities (`Context.name(labels:)`, `closure #1 in …`, accessors) and the types they are printed with.
extension SwiftNamePrinter {
    enum TypePrinting { case none, withColon, functionStyle }

    mutating func printNamedOrType(_ node: SwiftNodeID, kind: SwiftNodeKind, asPrefixContext: Bool) -> SwiftNodeID? {
        switch kind {
        case .variable:
            return printEntity(node, asPrefixContext, .withColon, hasName: true)
        case .function, .boundGenericFunction:
            return printEntity(node, asPrefixContext, .functionStyle, hasName: true)
        case .subscript_:
            return printEntity(node, asPrefixContext, .functionStyle, hasName: false, overwriteName: "subscript")
        case .explicitClosure, .implicitClosure:
            guard let index = tree.childIfPresent(node, 1) else {
                invalidate()
                return nil
            }
            return printEntity(
                node, asPrefixContext, options.showsArgumentTypes ? .functionStyle : .none, hasName: false,
                extraName: kind == .explicitClosure ? "closure #" : "implicit closure #",
                extraIndex: Int(tree.index(index)) + 1)
        case .initializer:
            return printEntity(
                node, asPrefixContext, .none, hasName: false, extraName: "variable initialization expression")
        case .defaultArgumentInitializer:
            guard let index = tree.childIfPresent(node, 1) else {
                invalidate()
                return nil
            }
            return printEntity(
                node, asPrefixContext, .none, hasName: false, extraName: "default argument ",
                extraIndex: Int(tree.index(index)))
        case .propertyWrapperBackingInitializer:
            return printEntity(
                node, asPrefixContext, .none, hasName: false, extraName: "property wrapper backing initializer")
        case .propertyWrapperInitFromProjectedValue:
            return printEntity(
                node, asPrefixContext, .none, hasName: false, extraName: "property wrapper init from projected value")
        case .class_, .structure, .enum_, .protocol_, .typeAlias, .otherNominalType:
            return printEntity(node, asPrefixContext, .none, hasName: true)
        case .allocator:
            let isClass = tree.childIfPresent(node, 0).map { tree.kind($0) == .class_ } ?? false
            return printEntity(
                node, asPrefixContext, .functionStyle, hasName: false,
                extraName: isClass ? "__allocating_init" : "init")
        case .constructor:
            return printEntity(
                node, asPrefixContext, .functionStyle, hasName: tree.childCount(node) > 2, extraName: "init")
        case .destructor:
            return printEntity(node, asPrefixContext, .none, hasName: false, extraName: "deinit")
        case .deallocator:
            let isClass = tree.childIfPresent(node, 0).map { tree.kind($0) == .class_ } ?? false
            return printEntity(
                node, asPrefixContext, .none, hasName: false,
                extraName: isClass ? "__deallocating_deinit" : "deinit")
        case .iVarInitializer:
            return printEntity(node, asPrefixContext, .none, hasName: false, extraName: "__ivar_initializer")
        case .iVarDestroyer:
            return printEntity(node, asPrefixContext, .none, hasName: false, extraName: "__ivar_destroyer")
        case .getter, .globalGetter, .setter, .materializeForSet, .willSet, .didSet, .readAccessor, .modifyAccessor,
            .unsafeAddressor, .unsafeMutableAddressor, .owningAddressor, .owningMutableAddressor,
            .nativeOwningAddressor, .nativeOwningMutableAddressor, .nativePinningAddressor,
            .nativePinningMutableAddressor:
            guard let storage = tree.childIfPresent(node, 0) else {
                invalidate()
                return nil
            }
            return printAbstractStorage(storage, asPrefixContext, accessorName(kind))
        case .objCAttribute:
            write("@objc ")
        case .nonObjCAttribute:
            write("@nonobjc ")
        case .dynamicAttribute:
            write("dynamic ")
        case .directMethodReferenceAttribute:
            write("super ")
        default:
            printType(node, kind: kind)
        }
        return nil
    }

    private func accessorName(_ kind: SwiftNodeKind) -> StaticString {
        switch kind {
        case .getter, .globalGetter: "getter"
        case .setter: "setter"
        case .materializeForSet: "materializeForSet"
        case .willSet: "willset"
        case .didSet: "didset"
        case .readAccessor: "read"
        case .modifyAccessor: "modify"
        case .unsafeAddressor: "unsafeAddressor"
        case .unsafeMutableAddressor: "unsafeMutableAddressor"
        case .owningAddressor: "owningAddressor"
        case .owningMutableAddressor: "owningMutableAddressor"
        case .nativeOwningAddressor: "nativeOwningAddressor"
        case .nativeOwningMutableAddressor: "nativeOwningMutableAddressor"
        case .nativePinningAddressor: "nativePinningAddressor"
        default: "nativePinningMutableAddressor"
        }
    }

    private mutating func printAbstractStorage(
        _ storage: SwiftNodeID, _ asPrefixContext: Bool, _ extraName: StaticString
    ) -> SwiftNodeID? {
        switch tree.kind(storage) {
        case .variable:
            return printEntity(storage, asPrefixContext, .withColon, hasName: true, extraName: extraName)
        case .subscript_:
            return printEntity(
                storage, asPrefixContext, .withColon, hasName: false, extraName: extraName,
                overwriteName: "subscript")
        default:
            invalidate()
            return nil
        }
    }

    /// The compiler's `printEntity`: the context as a prefix (`Context.name`) or, for names of several words, as a
    /// suffix (`closure #1 in Context.name`), then the name, then the type as the entity's kind wants it.
    private mutating func printEntity(
        _ entityNode: SwiftNodeID, _ asPrefixContext: Bool, _ typePrinting: TypePrinting, hasName: Bool,
        extraName: StaticString = "", extraIndex: Int = -1, overwriteName: StaticString = ""
    ) -> SwiftNodeID? {
        var entity = entityNode
        var genericFunctionTypeList: SwiftNodeID?
        if tree.kind(entity) == .boundGenericFunction {
            guard has(entity, children: 2) else { return nil }
            genericFunctionTypeList = tree.child(entity, 1)
            entity = tree.child(entity, 0)
        }
        guard tree.childCount(entity) > 0, !hasName || tree.childCount(entity) > 1 else {
            invalidate()
            return nil
        }
        var extraName = extraName
        var extraIndex = extraIndex
        let extraNameHasSpace = extraName.withUTF8Buffer { $0.contains(UInt8(ascii: " ")) }
        var multiWordName = extraNameHasSpace
        if hasName && tree.kind(tree.child(entity, 1)) == .localDeclName { multiWordName = true }
        if asPrefixContext && (typePrinting != .none || multiWordName) { return entity }

        var postfixContext: SwiftNodeID?
        let context = tree.child(entity, 0)
        if multiWordName {
            postfixContext = context
        } else {
            let before = output.count
            postfixContext = print(context, asPrefixContext: true)
            if output.count != before { write(byte: UInt8(ascii: ".")) }
        }

        if hasName || overwriteName.utf8CodeUnitCount > 0 {
            if extraName.utf8CodeUnitCount > 0 && multiWordName {
                write(extraName)
                if extraIndex >= 0 { write(number: UInt64(extraIndex)) }
                write(" of ")
                extraName = ""
                extraIndex = -1
            }
            let before = output.count
            if overwriteName.utf8CodeUnitCount > 0 {
                write(overwriteName)
            } else {
                let name = tree.child(entity, 1)
                if tree.kind(name) != .privateDeclName { print(name) }
                if let privateName = tree.firstChild(entity, ofKind: .privateDeclName) { print(privateName) }
            }
            if output.count != before && extraName.utf8CodeUnitCount > 0 { write(byte: UInt8(ascii: ".")) }
        }
        if extraName.utf8CodeUnitCount > 0 {
            write(extraName)
            if extraIndex >= 0 { write(number: UInt64(extraIndex)) }
        }
        if typePrinting != .none {
            guard let typeNode = tree.firstChild(entity, ofKind: .type), tree.childCount(typeNode) > 0 else {
                invalidate()
                return nil
            }
            let type = tree.child(typeNode, 0)
            var printing = typePrinting
            if printing == .functionStyle {
                var unwrapped = type
                while tree.kind(unwrapped) == .dependentGenericType {
                    guard let inner = tree.childIfPresent(unwrapped, 1), let innerType = tree.childIfPresent(inner, 0)
                    else {
                        invalidate()
                        return nil
                    }
                    unwrapped = innerType
                }
                switch tree.kind(unwrapped) {
                case .functionType, .noEscapeFunctionType, .uncurriedFunctionType, .cFunctionPointer,
                    .thinFunctionType:
                    break
                default:
                    printing = .withColon
                }
            }
            if printing == .functionStyle {
                if multiWordName || needsSpaceBeforeType(type) { write(byte: UInt8(ascii: " ")) }
                printEntityType(entity, type, genericFunctionTypeList)
            } else if options.showsEntityTypes {
                write(" : ")
                printEntityType(entity, type, genericFunctionTypeList)
            }
        }
        if !asPrefixContext, let context = postfixContext {
            switch tree.kind(entity) {
            case .defaultArgumentInitializer, .initializer, .propertyWrapperBackingInitializer,
                .propertyWrapperInitFromProjectedValue:
                write(" of ")
            default:
                write(" in ")
            }
            print(context)
            postfixContext = nil
        }
        return postfixContext
    }

    private mutating func printEntityType(
        _ entity: SwiftNodeID, _ type: SwiftNodeID, _ genericFunctionTypeList: SwiftNodeID?
    ) {
        let labels = tree.firstChild(entity, ofKind: .labelList)
        guard labels != nil || genericFunctionTypeList != nil else {
            print(type)
            return
        }
        if let genericFunctionTypeList {
            write("<")
            printChildren(genericFunctionTypeList, separator: ", ")
            write(">")
        }
        var functionType = type
        if tree.kind(type) == .dependentGenericType {
            guard has(type, children: 2) else { return }
            if genericFunctionTypeList == nil { print(tree.child(type, 0)) }
            let dependent = tree.child(type, 1)
            if needsSpaceBeforeType(dependent) { write(byte: UInt8(ascii: " ")) }
            guard let inner = tree.childIfPresent(dependent, 0) else { return invalidate() }
            functionType = inner
        }
        printFunctionType(labels, functionType)
    }

    func needsSpaceBeforeType(_ type: SwiftNodeID) -> Bool {
        switch tree.kind(type) {
        case .type:
            guard let first = tree.childIfPresent(type, 0) else { return true }
            return needsSpaceBeforeType(first)
        case .functionType, .noEscapeFunctionType, .uncurriedFunctionType, .dependentGenericType:
            return false
        default:
            return true
        }
    }
}
