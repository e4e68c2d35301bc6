/// Binary search over a partitioned array, shared by the estimators' window lookups.
extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate false then true along the array.
    func partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if predicate(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
