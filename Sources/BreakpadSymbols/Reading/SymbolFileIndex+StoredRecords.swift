import ObjectFiles

// How each record of a symbol file's index is stored: whole 64-bit words, two 32-bit numbers sharing one.

extension SymbolFileIndex.Function: StoredRecord {
    static var wordCount: Int { 8 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        self.init(
            address: words.next(), size: words.next(), name: words.range(), lines: words.range(),
            inlines: words.range())
    }

    func store(into words: inout StoredWordWriter) {
        words.append(address)
        words.append(size)
        words.append(range: name)
        words.append(range: lines)
        words.append(range: inlines)
    }
}

extension SymbolFileIndex.Line: StoredRecord {
    static var wordCount: Int { 3 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        let address = words.next(), size = words.next()
        let (line, file) = words.pair()
        self.init(address: address, size: size, line: line, file: file)
    }

    func store(into words: inout StoredWordWriter) {
        words.append(address)
        words.append(size)
        words.append(pair: line, file)
    }
}

extension SymbolFileIndex.Inline: StoredRecord {
    static var wordCount: Int { 4 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        let (depth, callLine) = words.pair()
        let (callFile, origin) = words.pair()
        self.init(depth: depth, callLine: callLine, callFile: callFile, origin: origin, ranges: words.range())
    }

    func store(into words: inout StoredWordWriter) {
        words.append(pair: depth, callLine)
        words.append(pair: callFile, origin)
        words.append(range: ranges)
    }
}

extension BreakpadRange: StoredRecord {
    static var wordCount: Int { 2 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        self.init(address: words.next(), size: words.next())
    }

    func store(into words: inout StoredWordWriter) {
        words.append(address)
        words.append(size)
    }
}

extension SymbolFileIndex.Public: StoredRecord {
    static var wordCount: Int { 3 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        self.init(address: words.next(), name: words.range())
    }

    func store(into words: inout StoredWordWriter) {
        words.append(address)
        words.append(range: name)
    }
}

extension SymbolFileIndex.CallFrameInit: StoredRecord {
    static var wordCount: Int { 6 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        self.init(address: words.next(), size: words.next(), rules: words.range(), deltas: words.range())
    }

    func store(into words: inout StoredWordWriter) {
        words.append(address)
        words.append(size)
        words.append(range: rules)
        words.append(range: deltas)
    }
}

extension SymbolFileIndex.CallFrameDelta: StoredRecord {
    static var wordCount: Int { 3 }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        self.init(address: words.next(), rules: words.range())
    }

    func store(into words: inout StoredWordWriter) {
        words.append(address)
        words.append(range: rules)
    }
}

/// A `FILE` or `INLINE_ORIGIN` record's text in the symbol file, by its number; `nil` for a number no record has.
struct TextRecord: StoredRecord {
    var text: Range<Int>?

    static var wordCount: Int { 2 }

    init(text: Range<Int>?) {
        self.text = text
    }

    init(_ bytes: ImmutableBytes, at offset: Int) {
        var words = StoredWords(bytes, at: offset)
        text = words.optionalRange()
    }

    func store(into words: inout StoredWordWriter) {
        words.append(optionalRange: text)
    }
}
