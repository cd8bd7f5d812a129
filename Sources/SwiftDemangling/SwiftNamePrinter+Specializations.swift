/// Specializations: `specialized` in the simplified form, `generic specialization <Swift.Int> of` and
/// `function signature specialization <Arg[0] = Dead> of` in full.
extension SwiftNamePrinter {
    mutating func printSpecializationPrefix(_ node: SwiftNodeID, kind: SwiftNodeKind) {
        guard options.showsSpecializations else {
            if !specializationPrefixPrinted {
                write("specialized ")
                specializationPrefixPrinted = true
            }
            return
        }
        var parameterPrefix: StaticString = ""
        switch kind {
        case .functionSignatureSpecialization: write("function signature specialization")
        case .genericSpecialization: write("generic specialization")
        case .genericSpecializationNotReAbstracted: write("generic not re-abstracted specialization")
        case .genericSpecializationInResilienceDomain: write("generic specialization")
        case .genericSpecializationPrespecialized: write("generic pre-specialization")
        case .inlinedGenericFunction: write("inlined generic function")
        case .genericPartialSpecialization:
            write("generic partial specialization")
            parameterPrefix = "Signature = "
        default:
            write("generic not-reabstracted partial specialization")
            parameterPrefix = "Signature = "
        }
        write(" <")
        var separator = false
        var argumentNumber: UInt64 = 0
        for position in 0..<tree.childCount(node) {
            let child = tree.child(node, position)
            switch tree.kind(child) {
            case .specializationPassID:
                break
            case .isSerialized:
                if separator { write(", ") }
                separator = true
                write("serialized")
            default:
                if tree.childCount(child) > 0 {
                    if separator { write(", ") }
                    separator = true
                    write(parameterPrefix)
                    switch tree.kind(child) {
                    case .functionSignatureSpecializationParam:
                        write("Arg[")
                        write(number: argumentNumber)
                        write("] = ")
                        printSignatureParameter(child)
                    case .functionSignatureSpecializationReturn:
                        write("Return = ")
                        printSignatureParameter(child)
                    default:
                        print(child)
                    }
                }
                argumentNumber += 1
            }
        }
        write("> of ")
    }

    /// What a function signature specialization did to one parameter. Constant and closure propagation name the
    /// propagated values by their (mangled) symbols, demangled in turn: left to the runtime.
    private mutating func printSignatureParameter(_ parameter: SwiftNodeID) {
        typealias Kind = SwiftSymbolParser.SignatureParameterKind
        guard has(parameter, children: 1) else { return }
        let raw = tree.index(tree.child(parameter, 0))
        var printed = false
        func and(_ printer: inout SwiftNamePrinter) {
            if printed { printer.write(" and ") }
            printed = true
        }
        if raw & Kind.existentialToGeneric != 0 {
            and(&self)
            write("Existential To Protocol Constrained Generic")
        }
        if raw & Kind.dead != 0 {
            and(&self)
            write("Dead")
        }
        if raw & Kind.ownedToGuaranteed != 0 {
            and(&self)
            write("Owned To Guaranteed")
        }
        if raw & Kind.guaranteedToOwned != 0 {
            and(&self)
            write("Guaranteed To Owned")
        }
        if raw & Kind.sroa != 0 {
            and(&self)
            write("Exploded")
            return
        }
        if printed { return }
        switch Kind(rawValue: raw) {
        case .boxToValue: write("Value Promoted from Box")
        case .boxToStack: write("Stack Promoted from Box")
        case .inOutToOut: write("InOut Converted to Out")
        default: invalidate()
        }
    }
}
