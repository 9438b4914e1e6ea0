// Re-exported: a rule module imports only RuleKit and declares its severity, editions and
// parameter kinds, and reads presentation kinds, in the catalogue's one vocabulary.
@_exported public import CatalogueVocabulary
