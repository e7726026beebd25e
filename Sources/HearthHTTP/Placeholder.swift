enum HearthHTTPPlaceholder {}
