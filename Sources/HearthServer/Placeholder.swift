enum HearthServerPlaceholder {}
