enum HearthMailPlaceholder {}
