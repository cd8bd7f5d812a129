/// Prints a demangling tree as the Swift runtime does: in full (`swift_demangle`'s default options), in its
/// simplified form (`SimplifiedUIDemangleOptions`: no module names, no specialization details, no where clauses, no
/// entity types, shortened thunks), or simplified with the types of a function's parameters (as crash pipelines'
/// symbol files show Swift names); ``SwiftNameOptions`` holds the switches.
///
/// Node kinds it does not print make it give up: the caller then asks the runtime's demangler.
struct SwiftNamePrinter {
    let tree: SwiftNodeTree
    let options: SwiftNameOptions
    /// The name printed so far (the demangler's buffer, emptied first).
    let output: RawBuffer<UInt8>
    private(set) var isValid = true
    var specializationPrefixPrinted = false
    private var depth = 0

    /// Deeper trees than this are left to the runtime (which stops at a similar depth).
    private static let maximumDepth = 768

    init(tree: SwiftNodeTree, options: SwiftNameOptions, output: RawBuffer<UInt8>) {
        self.tree = tree
        self.options = options
        self.output = output
        output.removeAll()
    }

    mutating func invalidate() { isValid = false }

    /// Whether `node` has `count` children; when not, the tree is one this printer does not mirror, and it gives up.
    mutating func has(_ node: SwiftNodeID, children count: Int) -> Bool {
        if tree.childCount(node) == count { return true }
        invalidate()
        return false
    }

    /// Whether `node` has `count` children or more; when not, the printer gives up.
    mutating func has(_ node: SwiftNodeID, atLeast count: Int) -> Bool {
        if tree.childCount(node) >= count { return true }
        invalidate()
        return false
    }

    mutating func write(_ text: StaticString) {
        // The bytes of a string literal are at hand: a closure over them would retain and release the output buffer on
        // each of the thousands of words a batch of names prints.
        guard text.hasPointerRepresentation else { return text.withUTF8Buffer { output.append(contentsOf: $0) } }
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func write(byte: UInt8) {
        output.append(byte)
    }

    mutating func writeText(of node: SwiftNodeID) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: tree.text[tree.textRange(node)]))
    }

    mutating func write(number: UInt64) {
        if number >= 10 { write(number: number / 10) }
        output.append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    mutating func printChildren(_ node: SwiftNodeID, separator: StaticString? = nil) {
        let count = tree.childCount(node)
        for position in 0..<count {
            print(tree.child(node, position))
            if let separator, position + 1 < count { write(separator) }
        }
    }

    /// Prints `node`; returns a context still to print after the entity, in the form `<entity> in <context>`.
    @discardableResult
    mutating func print(_ node: SwiftNodeID, asPrefixContext: Bool = false) -> SwiftNodeID? {
        guard isValid else { return nil }
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            invalidate()
            return nil
        }
        let kind = tree.kind(node)
        if let prefix = SwiftNamePrinter.simplePrefix(kind) {
            write(prefix)
            guard let first = tree.childIfPresent(node, 0) else {
                invalidate()
                return nil
            }
            print(first)
            return nil
        }
        switch kind {
        case .global, .typeList:
            printChildren(node)
        case .labelList:
            break
        case .suffix:
            if options.showsUnmangledSuffixes {
                write(" with unmangled suffix ")
                writeQuoted(node)
            }
        case .module:
            if options.showsModules { writeText(of: node) }
        case .mergedFunction:
            if !options.shortensThunks { write("merged ") }
        case .asyncAwaitResumePartialFunction, .asyncSuspendResumePartialFunction:
            if options.showsAsyncResumePartials {
                write("(")
                printFirstChild(node)
                write(")")
                write(
                    kind == .asyncAwaitResumePartialFunction
                        ? " await resume partial function for " : " suspend resume partial function for ")
            }
        case .type:
            printFirstChild(node)
        case .identifier, .builtinTypeName, .metatypeRepresentation:
            writeText(of: node)
        case .index, .number:
            write(number: tree.index(node))
        case .infixOperator:
            writeText(of: node)
            write(" infix")
        case .prefixOperator:
            writeText(of: node)
            write(" prefix")
        case .postfixOperator:
            writeText(of: node)
            write(" postfix")
        case .extension_:
            guard has(node, atLeast: 2) else { return nil }
            if options.showsExtensionContexts {
                write("(extension in ")
                print(tree.child(node, 0), asPrefixContext: true)
                write("):")
            }
            print(tree.child(node, 1))
            if tree.childCount(node) == 3 { print(tree.child(node, 2)) }
        case .localDeclName:
            guard has(node, children: 2) else { return nil }
            print(tree.child(node, 1))
            write(" #")
            write(number: tree.index(tree.child(node, 0)) + 1)
        case .privateDeclName:
            if tree.childCount(node) > 1 {
                if options.showsPrivateDiscriminators { write("(") }
                print(tree.child(node, 1))
                if options.showsPrivateDiscriminators {
                    write(" in ")
                    writeText(of: tree.child(node, 0))
                    write(")")
                }
            } else if options.showsPrivateDiscriminators, let discriminator = tree.childIfPresent(node, 0) {
                write("(in ")
                writeText(of: discriminator)
                write(")")
            }
        case .tupleElementName:
            writeText(of: node)
            write(": ")
        case .valueWitness:
            let code = tree.textRange(node)
            guard code.count == 2,
                let name = ValueWitnessNames.name(tree.text[code.lowerBound], tree.text[code.lowerBound + 1])
            else {
                invalidate()
                return nil
            }
            write(name)
            write(options.shortensThunks ? " for " : " value witness for ")
            printFirstChild(node)
        case .keyPathGetterThunkHelper, .keyPathSetterThunkHelper:
            guard has(node, atLeast: 2) else { return nil }
            write(kind == .keyPathGetterThunkHelper ? "key path getter for " : "key path setter for ")
            print(tree.child(node, 0))
            write(" : ")
            for position in 1..<tree.childCount(node) {
                let child = tree.child(node, position)
                if tree.kind(child) == .isSerialized { write(", serialized") } else { print(child) }
            }
        case .baseWitnessTableAccessor:
            guard has(node, children: 2) else { return nil }
            write("base witness table accessor for ")
            print(tree.child(node, 1))
            write(" in ")
            print(tree.child(node, 0))
        case .associatedTypeWitnessTableAccessor:
            guard has(node, children: 3) else { return nil }
            write("associated type witness table accessor for ")
            print(tree.child(node, 1))
            write(" : ")
            print(tree.child(node, 2))
            write(" in ")
            print(tree.child(node, 0))
        case .assocTypePath:
            printChildren(node, separator: ".")
        case .directness:
            write(tree.index(node) == 0 ? "direct " : "indirect ")
        case .outlinedVariable:
            write("outlined variable #")
            write(number: tree.index(node))
            write(" of ")
        case .partialApplyForwarder, .partialApplyObjCForwarder:
            write("partial apply")
            if !options.shortensThunks {
                write(kind == .partialApplyForwarder ? " forwarder" : " ObjC forwarder")
            }
            if tree.childCount(node) > 0 {
                write(" for ")
                printChildren(node)
            }
        case .reabstractionThunk, .reabstractionThunkHelper:
            guard has(node, atLeast: 2) else { return nil }
            let count = tree.childCount(node)
            if options.shortensThunks {
                write("thunk for ")
                print(tree.child(node, count - 1))
            } else {
                write(kind == .reabstractionThunkHelper ? "reabstraction thunk helper " : "reabstraction thunk ")
                if let signature = tree.firstChild(node, ofKind: .dependentGenericSignature) {
                    print(signature)
                    write(" ")
                }
                write("from ")
                print(tree.child(node, count - 1))
                write(" to ")
                print(tree.child(node, count - 2))
            }
        case .protocolWitness:
            guard has(node, children: 2) else { return nil }
            write("protocol witness for ")
            print(tree.child(node, 1))
            write(" in conformance ")
            print(tree.child(node, 0))
        case .protocolConformance:
            guard has(node, children: 3) else { return nil }
            print(tree.child(node, 0))
            if options.showsConformances {
                write(" : ")
                print(tree.child(node, 1))
                write(" in ")
                print(tree.child(node, 2))
            }
        case .vTableThunk:
            guard has(node, children: 2) else { return nil }
            write("vtable thunk for ")
            print(tree.child(node, 1))
            write(" dispatching to ")
            print(tree.child(node, 0))
        case .lazyProtocolWitnessTableAccessor, .lazyProtocolWitnessTableCacheVariable:
            guard has(node, children: 2) else { return nil }
            write(
                kind == .lazyProtocolWitnessTableAccessor
                    ? "lazy protocol witness table accessor for type "
                    : "lazy protocol witness table cache variable for type ")
            print(tree.child(node, 0))
            write(" and conformance ")
            print(tree.child(node, 1))
        case .fieldOffset:
            guard has(node, children: 2) else { return nil }
            print(tree.child(node, 0))
            write("field offset for ")
            print(tree.child(node, 1))
        case .outlinedCopy, .outlinedConsume:
            write(kind == .outlinedCopy ? "outlined copy of " : "outlined consume of ")
            printFirstChild(node)
            if tree.childCount(node) > 1 { print(tree.child(node, 1)) }
        case .functionSignatureSpecialization, .genericSpecialization, .genericSpecializationNotReAbstracted,
            .genericSpecializationInResilienceDomain, .genericSpecializationPrespecialized, .inlinedGenericFunction,
            .genericPartialSpecialization, .genericPartialSpecializationNotReAbstracted:
            printSpecializationPrefix(node, kind: kind)
        default:
            return printNamedOrType(node, kind: kind, asPrefixContext: asPrefixContext)
        }
        return nil
    }

    /// A name's text in double quotes, escaped as the compiler's `QuotedString` escapes it.
    mutating func writeQuoted(_ node: SwiftNodeID) {
        write("\"")
        for byte in tree.text[tree.textRange(node)] {
            switch byte {
            case UInt8(ascii: "\\"): write("\\\\")
            case UInt8(ascii: "\t"): write("\\t")
            case UInt8(ascii: "\n"): write("\\n")
            case UInt8(ascii: "\r"): write("\\r")
            case UInt8(ascii: "\""): write("\\\"")
            case 0: write("\\0")
            case 0..<0x20, 0x7F:
                let digits = Array("0123456789ABCDEF".utf8)
                write("\\x")
                write(byte: digits[Int(byte >> 4)])
                write(byte: digits[Int(byte & 0xF)])
            case 0x80...:
                // The compiler escapes these through a signed `char`; such suffixes are left to the runtime.
                invalidate()
            default: write(byte: byte)
            }
        }
        write("\"")
    }

    mutating func printFirstChild(_ node: SwiftNodeID) {
        guard let first = tree.childIfPresent(node, 0) else { return invalidate() }
        print(first)
    }

    /// Kinds printed as a fixed phrase followed by their first child.
    private static func simplePrefix(_ kind: SwiftNodeKind) -> StaticString? {
        switch kind {
        case .static_: "static "
        case .curryThunk: "curry thunk of "
        case .dispatchThunk: "dispatch thunk of "
        case .methodDescriptor: "method descriptor for "
        case .methodLookupFunction: "method lookup function for "
        case .outlinedRetain: "outlined retain of "
        case .outlinedRelease: "outlined release of "
        case .outlinedInitializeWithTake: "outlined init with take of "
        case .outlinedInitializeWithCopy: "outlined init with copy of "
        case .outlinedAssignWithTake: "outlined assign with take of "
        case .outlinedAssignWithCopy: "outlined assign with copy of "
        case .outlinedDestroy: "outlined destroy of "
        case .protocolSelfConformanceWitness: "protocol self-conformance witness for "
        case .typeMetadata: "type metadata for "
        case .typeMetadataAccessFunction: "type metadata accessor for "
        case .fullTypeMetadata: "full type metadata for "
        case .nominalTypeDescriptor: "nominal type descriptor for "
        case .protocolDescriptor: "protocol descriptor for "
        case .protocolConformanceDescriptor: "protocol conformance descriptor for "
        case .protocolWitnessTable: "protocol witness table for "
        case .protocolWitnessTableAccessor: "protocol witness table accessor for "
        case .protocolWitnessTablePattern: "protocol witness table pattern for "
        case .genericProtocolWitnessTable: "generic protocol witness table for "
        case .genericProtocolWitnessTableInstantiationFunction:
            "instantiation function for generic protocol witness table for "
        case .resilientProtocolWitnessTable: "resilient protocol witness table for "
        case .typeMetadataLazyCache: "lazy cache variable for type metadata for "
        case .typeMetadataCompletionFunction: "type metadata completion function for "
        case .typeMetadataInstantiationCache: "type metadata instantiation cache for "
        case .typeMetadataInstantiationFunction: "type metadata instantiation function for "
        case .typeMetadataSingletonInitializationCache: "type metadata singleton initialization cache for "
        case .genericTypeMetadataPattern: "generic type metadata pattern for "
        case .valueWitnessTable: "value witness table for "
        case .metaclass: "metaclass for "
        case .classMetadataBaseOffset: "class metadata base offset for "
        case .propertyDescriptor: "property descriptor for "
        case .enumCase: "enum case for "
        case .reflectionMetadataFieldDescriptor: "reflection metadata field descriptor "
        case .reflectionMetadataBuiltinDescriptor: "reflection metadata builtin descriptor "
        case .asyncFunctionPointer: "async function pointer to "
        case .dynamicallyReplaceableFunctionVar: "dynamically replaceable variable for "
        case .dynamicallyReplaceableFunctionKey: "dynamically replaceable key for "
        case .dynamicallyReplaceableFunctionImpl: "dynamically replaceable thunk for "
        case .inOut: "inout "
        case .shared: "__shared "
        case .owned: "__owned "
        case .isolated: "isolated "
        case .compileTimeConst: "_const "
        case .noDerivative: "@noDerivative "
        case .weak: "weak "
        case .unowned: "unowned "
        case .unmanaged: "unowned(unsafe) "
        default: nil
        }
    }
}
