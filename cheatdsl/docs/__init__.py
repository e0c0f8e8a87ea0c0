"""Generated documentation: the author's guide (`docs/guide.md`) and the gallery of shipped profiles (`docs/gallery/`)."""
