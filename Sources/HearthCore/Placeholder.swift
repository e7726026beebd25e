enum HearthCorePlaceholder {}
