/// What a printed Swift name shows: the switches of the compiler's `DemangleOptions` that tell the runtime's full
/// form (`swift_demangle` with no flags), its simplified form (the backtracer's) and the symbol-file form apart.
struct SwiftNameOptions {
    /// Module names (`Swift.Int`, `M.Shape`).
    var showsModules: Bool
    /// `(extension in M):` before a type extended in another module.
    var showsExtensionContexts: Bool
    /// Types of parameters, of closures and of entities printed with a colon (`x : Swift.Int`).
    var showsArgumentTypes: Bool
    /// `-> T`, ` async`, ` throws` after parameters.
    var showsResultTypes: Bool
    /// The types of variables and accessors after ` : `.
    var showsEntityTypes: Bool
    /// `where` clauses of generic signatures.
    var showsWhereClauses: Bool
    /// `generic specialization <Swift.Int> of` rather than `specialized`.
    var showsSpecializations: Bool
    /// ` : P in M` after a conforming type.
    var showsConformances: Bool
    /// `(name in _0123…)` for private names.
    var showsPrivateDiscriminators: Bool
    /// ` with unmangled suffix ".cold"`.
    var showsUnmangledSuffixes: Bool
    /// `(1) await resume partial function for`.
    var showsAsyncResumePartials: Bool
    /// `[A]`, `A?`, `[A : B]` for arrays, optionals and dictionaries.
    var synthesizesSugar: Bool
    /// `thunk for`, `partial apply for`, `destroy for`, no `merged`.
    var shortensThunks: Bool

    /// `swift_demangle`'s simplified options (`SimplifiedUIDemangleOptions`).
    static let simplified = SwiftNameOptions(
        showsModules: false, showsExtensionContexts: false, showsArgumentTypes: false, showsResultTypes: false,
        showsEntityTypes: false, showsWhereClauses: false, showsSpecializations: false, showsConformances: false,
        showsPrivateDiscriminators: false, showsUnmangledSuffixes: false, showsAsyncResumePartials: false,
        synthesizesSugar: true, shortensThunks: true)

    /// The simplified options with parameter types and without result types, as dump_syms writes Swift names.
    static let withParameterTypes: SwiftNameOptions = {
        var options = simplified
        options.showsArgumentTypes = true
        return options
    }()

    /// `swift_demangle`'s default options: everything.
    static let full = SwiftNameOptions(
        showsModules: true, showsExtensionContexts: true, showsArgumentTypes: true, showsResultTypes: true,
        showsEntityTypes: true, showsWhereClauses: true, showsSpecializations: true, showsConformances: true,
        showsPrivateDiscriminators: true, showsUnmangledSuffixes: true, showsAsyncResumePartials: true,
        synthesizesSugar: false, shortensThunks: false)
}
