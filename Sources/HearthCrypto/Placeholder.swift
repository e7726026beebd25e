enum HearthCryptoPlaceholder {}
