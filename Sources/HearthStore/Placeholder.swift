enum HearthStorePlaceholder {}
