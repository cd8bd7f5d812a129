extension RandomAccessCollection where Index == Int {
    /// In a collection sorted by `key`: the position after the last element whose key is at most `value` (the
    /// collection's start when there is none).
    /// - Complexity: O(log n).
    func end(ofKeysAtMost value: UInt64, _ key: (Element) -> UInt64) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if key(self[middle]) <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
