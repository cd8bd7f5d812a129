import Grouping
import Testing

/// Names as the producers print them (a debugger, the C library, a sanitizer, the Swift runtime, the demanglers)
/// against the form signatures compare.
@Suite("Function names, normalised")
struct FunctionNameNormalizerTests {
    @Test(arguments: [
        // C++: argument lists and qualifiers go, template arguments become <T>.
        ("ns::Store::find(std::string const&) const", "ns::Store::find"),
        (
            "std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, int const&)",
            "std::vector<T>::_M_realloc_insert<T>"
        ),
        ("(anonymous namespace)::parse(char const*)", "(anonymous namespace)::parse"),
        ("Matrix::operator()(int, int)", "Matrix::operator()"),
        ("operator<<(std::ostream&, Point const&)", "operator<<"),
        ("bool std::operator< <char>(std::string const&, std::string const&)", "bool std::operator< <T>"),
        ("operator new[](unsigned long)", "operator new[]"),
        ("Worker::run()::{lambda(int)#1}::operator()(int) const", "Worker::run()::{lambda(int)#1}::operator()"),
        ("Cache::get(int) &&", "Cache::get"),
        // Compiler clones.
        ("process.cold", "process"),
        ("scale.isra.0", "scale"),
        ("normalize.constprop.0.isra.0", "normalize"),
        ("value_at.part.0", "value_at"),
        ("getnameinfo.localalias", "getnameinfo"),
        ("ns::f(int) [clone .cold]", "ns::f"),
        ("version.2", "version.2"),
        // glibc's aliases and sanitizer interceptors.
        ("__GI_raise", "raise"),
        ("__GI___libc_free", "free"),
        ("__interceptor_free", "free"),
        ("___interceptor_malloc", "malloc"),
        // glibc's processor-specific string functions.
        ("__strlen_evex", "strlen"),
        ("__strlen_avx2", "strlen"),
        ("__memmove_avx_unaligned_erms", "memmove"),
        ("__memcpy_sse2_unaligned", "memcpy"),
        ("__strlen_of_record", "__strlen_of_record"),
        ("__GI___strdup", "strdup"),
        // Swift: labels and closure numbers stay, specialisations are named as the generic function.
        ("restock(_:names:)", "restock(_:names:)"),
        ("closure #2 in restock(_:names:)", "closure #2 in restock(_:names:)"),
        ("specialized Collection.map<A, B>(_:)", "Collection.map<A, B>(_:)"),
        ("generic specialization <Swift.Int> of Sequence.reduce<A>(_:_:)", "Sequence.reduce<A>(_:_:)"),
        ("merged Ledger.post(_:)", "Ledger.post(_:)"),
        ("(1) suspend resume partial function for checksum(_:upTo:)", "checksum(_:upTo:)"),
        ("Array.subscript.getter", "Array.subscript.getter"),
        // C and Objective-C pass through; a producer's word for a frame is kept as written.
        ("main", "main"),
        ("-[CrashExampleAppDelegate performTransition]", "-[CrashExampleAppDelegate performTransition]"),
        ("<signal handler called>", "<signal handler called>"),
        (
            "-[NSObject+ 1045168 (NSObject) doesNotRecognizeSelector:]",
            "-[NSObject(NSObject) doesNotRecognizeSelector:]"
        ),
        (
            "std::__1::vector<int, std::__1::allocator<int> >::operator[][abi:se180100](unsigned long)",
            "std::__1::vector<T>::operator[]"
        ),
        // Full Swift names, as older runtimes print them, take the simplified form.
        (
            "closure #1 (Swift.Int, Swift.String) -> Swift.Int in inventory.restock(_: inout inventory.Inventory, names: [Swift.String]) -> Swift.Int",
            "closure #1 in restock(_:names:)"
        ),
        (
            "Swift._assertionFailure(_: Swift.StaticString, _: Swift.String, file: Swift.StaticString, line: Swift.UInt, flags: Swift.UInt32) -> Swift.Never",
            "_assertionFailure(_:_:file:line:flags:)"
        ),
        (
            "NetService.Responder.(in _B4B8C4C6947C16B8992D8E4F6DABB08E).init() throws -> NetService.Responder",
            "Responder.init"
        ),
        (
            "function signature specialization <Arg[1] = [Closure Propagated : closure #1 (Swift.UnsafeBufferPointer<Swift.UInt8>) -> () in Swift._assertionFailure(_: Swift.StaticString, _: Swift.String, file: Swift.StaticString, line: Swift.UInt, flags: Swift.UInt32) -> Swift.Never, Argument Types : [Swift.StaticString]> of generic specialization <()> of Swift.String.withUTF8<A>((Swift.UnsafeBufferPointer<Swift.UInt8>) throws -> A) throws -> A",
            "String.withUTF8<A>(_:)"
        ),
        (
            "Backtrace.(printBacktrace in _B82A8C0ED7C904841114FDF244F9E58E)(signal: Swift.Int32) -> ()",
            "printBacktrace(signal:)"
        )
    ])
    func normalises(_ name: String, _ expected: String) {
        #expect(FunctionNameNormalizer.normalize(name) == expected)
    }

    @Test(arguments: [
        ("worker::detail::compute", "worker::detail", "compute"),
        ("(anonymous namespace)::parse", "(anonymous namespace)", "parse"),
        (
            "Worker::run()::{lambda(std::string const&)#1}::operator()",
            "Worker::run()::{lambda(std::string const&)#1}", "operator()"
        ),
        ("std::vector<T>::operator[]", "std::vector<T>", "operator[]"),
        ("compute", nil, nil),
        ("::compute", nil, nil)
    ])
    func aNamesScope(_ name: String, _ scope: String?, _ bare: String?) {
        let parts = FunctionNameNormalizer.scope(of: name)
        #expect(parts.map { String($0.scope) } == scope && parts.map { String($0.name) } == bare)
    }

    @Test("A function and its clone, specialisation or alias normalise alike")
    func clonesMatchTheirFunction() {
        let pairs = [
            ("parse_record", "parse_record.cold"), ("free", "__GI___libc_free"),
            ("ns::f(int)", "ns::f(long) [clone .isra.0]"), ("f(_:)", "specialized f(_:)")
        ]
        for (plain, variant) in pairs {
            #expect(
                FunctionNameNormalizer.normalize(plain) == FunctionNameNormalizer.normalize(variant),
                "\(plain) / \(variant)")
        }
    }
}
