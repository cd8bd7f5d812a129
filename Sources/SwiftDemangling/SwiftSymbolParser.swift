/// Reads a Swift symbol (`$s…`, `_$s…`, `$S…`) into a demangling tree, operator by operator, as the compiler's
/// demangler does (`lib/Demangling/Demangler.cpp`): a stack of nodes that each operator pops its operands from and
/// pushes its result on, a list of substitutions, and the words of earlier identifiers.
///
/// It reads the operators of ordinary code (functions, accessors, closures, generics, specializations, thunks,
/// witnesses, metadata); any other operator, a malformed symbol, or one the tree printer cannot print makes it decline
/// (nil), and the caller asks the runtime's demangler, which reads every mangling.
struct SwiftSymbolParser {
    var tree = SwiftNodeTree()
    private let stack = RawBuffer<SwiftNodeID>(capacity: 64)
    private let substitutions = RawBuffer<SwiftNodeID>(capacity: 64)
    private var words: [Range<Int>] = []
    /// Identifier text not yet looked at for words, in the order it was read: words are found only when an identifier
    /// refers to one, as far as it refers (a name refers to a few words early in it, or to none).
    private var unscanned: [Range<Int>] = []
    private var nextUnscanned = 0
    private var input: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    var position = 0

    /// The most words an identifier may refer back to (`MaxNumWords`).
    private static let maximumWords = 26
    /// The most repetitions of a substitution (`SubstitutionMerging::MaxRepeatCount`).
    static let maximumRepeatCount = 2048

    init() {
        words.reserveCapacity(Self.maximumWords)
    }

    /// The tree of `symbol`'s demangling (its ``SwiftNodeKind/global`` root), or nil when the symbol is not a Swift
    /// symbol of the manglings read here or uses an operator this reader does not know.
    mutating func parse(_ symbol: UnsafeBufferPointer<UInt8>) -> SwiftNodeID? {
        tree.removeAll()
        stack.removeAll()
        substitutions.removeAll()
        words.removeAll(keepingCapacity: true)
        unscanned.removeAll(keepingCapacity: true)
        nextUnscanned = 0
        input = symbol
        defer { input = UnsafeBufferPointer(start: nil, count: 0) }
        position = 0
        guard let prefixLength = Self.manglingPrefixLength(symbol) else { return nil }
        position = prefixLength

        while position < input.count {
            guard let node = demangleOperator() else { return nil }
            stack.append(node)
        }

        let root = tree.make(.global)
        // A suffix (`.cold`, `.resume.0`) belongs to the whole symbol, not to its last function attribute.
        let suffix = pop(.suffix)
        var parent = root
        while let attribute = pop(where: Self.isFunctionAttribute) {
            tree.addChild(attribute, to: parent)
            if tree.kind(attribute) == .partialApplyForwarder || tree.kind(attribute) == .partialApplyObjCForwarder {
                parent = attribute
            }
        }
        // A symbol names one entity; more nodes left on the stack are a damaged symbol, which the runtime's printer
        // may still print in ways this one does not mirror.
        guard stack.count == 1 else { return nil }
        for node in stack.elements {
            if tree.kind(node) == .type {
                guard tree.childCount(node) > 0 else { return nil }
                tree.addChild(tree.child(node, 0), to: parent)
            } else {
                tree.addChild(node, to: parent)
            }
        }
        if let suffix { tree.addChild(suffix, to: root) }
        return tree.childCount(root) == 0 ? nil : root
    }

    /// `$s`, `_$s`, `$S`, `_$S`: the manglings this reader knows (Swift 4's `_T0`, with its labels inside
    /// function types, and embedded Swift's `$e` are left to the runtime).
    private static func manglingPrefixLength(_ symbol: UnsafeBufferPointer<UInt8>) -> Int? {
        let dollar = UInt8(ascii: "$")
        func isSwiftLetter(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "s") || byte == UInt8(ascii: "S") }
        if symbol.count >= 2, symbol[0] == dollar, isSwiftLetter(symbol[1]) { return 2 }
        if symbol.count >= 3, symbol[0] == UInt8(ascii: "_"), symbol[1] == dollar, isSwiftLetter(symbol[2]) {
            return 3
        }
        return nil
    }

    // MARK: The cursor

    @inline(__always) func peek() -> UInt8 { position < input.count ? input[position] : 0 }

    @inline(__always) mutating func next() -> UInt8 {
        guard position < input.count else { return 0 }
        defer { position += 1 }
        return input[position]
    }

    @inline(__always) mutating func nextIf(_ character: Unicode.Scalar) -> Bool {
        guard position < input.count, input[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    @inline(__always) mutating func pushBack() { position -= 1 }

    var remaining: Int { input.count - position }

    func inputBytes(_ range: Range<Int>) -> Slice<UnsafeBufferPointer<UInt8>> { input[range] }

    // MARK: The node stack

    mutating func push(_ node: SwiftNodeID) { stack.append(node) }

    mutating func pop() -> SwiftNodeID? { stack.count > 0 ? stack.removeLast() : nil }

    mutating func pop(_ kind: SwiftNodeKind) -> SwiftNodeID? {
        guard let last = stack.last, tree.kind(last) == kind else { return nil }
        return stack.removeLast()
    }

    mutating func pop(where predicate: (SwiftNodeKind) -> Bool) -> SwiftNodeID? {
        guard let last = stack.last, predicate(tree.kind(last)) else { return nil }
        return stack.removeLast()
    }

    mutating func addSubstitution(_ node: SwiftNodeID?) {
        if let node { substitutions.append(node) }
    }

    func substitution(_ index: Int) -> SwiftNodeID? {
        index >= 0 && index < substitutions.count ? substitutions[index] : nil
    }

    // MARK: Building nodes

    mutating func make(_ kind: SwiftNodeKind, _ child: SwiftNodeID?) -> SwiftNodeID? {
        guard let child else { return nil }
        return tree.make(kind, children: child)
    }

    mutating func make(_ kind: SwiftNodeKind, _ first: SwiftNodeID?, _ second: SwiftNodeID?) -> SwiftNodeID? {
        guard let first, let second else { return nil }
        return tree.make(kind, children: first, second)
    }

    mutating func make(
        _ kind: SwiftNodeKind, _ first: SwiftNodeID?, _ second: SwiftNodeID?, _ third: SwiftNodeID?
    ) -> SwiftNodeID? {
        guard let first, let second, let third else { return nil }
        return tree.make(kind, children: first, second, third)
    }

    mutating func make(
        _ kind: SwiftNodeKind, _ first: SwiftNodeID?, _ second: SwiftNodeID?, _ third: SwiftNodeID?,
        _ fourth: SwiftNodeID?
    ) -> SwiftNodeID? {
        guard let first, let second, let third, let fourth else { return nil }
        return tree.make(kind, children: first, second, third, fourth)
    }

    mutating func makeType(_ child: SwiftNodeID?) -> SwiftNodeID? { make(.type, child) }

    /// `parent` with `child` added; nil when either is nil (the demangler's `addChild`).
    @discardableResult
    mutating func add(_ child: SwiftNodeID?, to parent: SwiftNodeID?) -> SwiftNodeID? {
        guard let parent, let child else { return nil }
        tree.addChild(child, to: parent)
        return parent
    }

    // MARK: Numbers

    /// A decimal number, or nil when there is none or it overflows.
    mutating func demangleNatural() -> Int? {
        guard isDigit(peek()) else { return nil }
        var number = 0
        while isDigit(peek()) {
            let (times10, overflow1) = number.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(next() - UInt8(ascii: "0")))
            guard !overflow1, !overflow2, sum <= Int(Int32.max) else { return nil }
            number = sum
        }
        return number
    }

    /// `_` (0) or a number followed by `_` (the number plus one).
    mutating func demangleIndex() -> Int? {
        if nextIf("_") { return 0 }
        guard let number = demangleNatural(), nextIf("_") else { return nil }
        return number + 1
    }

    mutating func demangleIndexAsNode() -> SwiftNodeID? {
        guard let index = demangleIndex() else { return nil }
        return tree.make(.number, index: UInt64(index))
    }

    // MARK: Identifiers

    mutating func demangleIdentifier() -> SwiftNodeID? {
        var hasWordSubstitutions = false
        guard isDigit(peek()) else { return nil }
        if peek() == UInt8(ascii: "0") {
            position += 1
            // Punycode (`00`) is rare enough to leave to the runtime.
            if peek() == UInt8(ascii: "0") { return nil }
            hasWordSubstitutions = true
        }
        let start = tree.textCount
        repeat {
            while hasWordSubstitutions && isLetter(peek()) {
                let character = next()
                let wordIndex: Int
                if isLowerLetter(character) {
                    wordIndex = Int(character - UInt8(ascii: "a"))
                } else {
                    wordIndex = Int(character - UInt8(ascii: "A"))
                    hasWordSubstitutions = false
                }
                guard wordIndex < words.count || findWords(through: wordIndex) else { return nil }
                tree.appendText(input[words[wordIndex]])
            }
            if nextIf("0") { break }
            guard let count = demangleNatural(), count > 0, position + count <= input.count else { return nil }
            let slice = position..<(position + count)
            tree.appendText(input[slice])
            unscanned.append(slice)
            position += count
        } while hasWordSubstitutions
        guard tree.textCount > start else { return nil }
        let identifier = tree.make(.identifier, textFrom: start)
        addSubstitution(identifier)
        return identifier
    }

    /// Finds the words of the identifier text read so far, in order, until word `index` is known; whether it is.
    private mutating func findWords(through index: Int) -> Bool {
        while words.count <= index, words.count < Self.maximumWords, nextUnscanned < unscanned.count {
            recordWords(in: unscanned[nextUnscanned])
            nextUnscanned += 1
        }
        return index < words.count
    }

    /// The words of an identifier that later identifiers may refer to: runs that start with a non-digit other than
    /// `_` and end before `_`, the end, or a capital letter after a non-capital; at least two characters.
    private mutating func recordWords(in slice: Range<Int>) {
        // Once the list is full no later word is kept: the rest of the symbol need not be looked at for words.
        guard words.count < Self.maximumWords, let base = input.baseAddress else { return }
        var wordStart = -1
        var previous: UInt8 = 0
        for position in slice.lowerBound...slice.upperBound {
            let character: UInt8 = position < slice.upperBound ? base[position] : 0
            if wordStart >= 0 && isWordEnd(character, previous: previous) {
                if position - wordStart >= 2 {
                    words.append(wordStart..<position)
                    if words.count == Self.maximumWords { return }
                }
                wordStart = -1
            }
            if wordStart < 0 && isWordStart(character) { wordStart = position }
            previous = character
        }
    }

    @inline(__always) private func isWordStart(_ character: UInt8) -> Bool {
        !isDigit(character) && character != UInt8(ascii: "_") && character != 0
    }

    @inline(__always) private func isWordEnd(_ character: UInt8, previous: UInt8) -> Bool {
        if character == UInt8(ascii: "_") || character == 0 { return true }
        return !isUpperLetter(previous) && isUpperLetter(character)
    }
}

@inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
@inline(__always) func isLowerLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
@inline(__always) func isUpperLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
@inline(__always) func isLetter(_ byte: UInt8) -> Bool { isLowerLetter(byte) || isUpperLetter(byte) }
