// Re-exported: a rule's descriptor speaks the catalogue's one vocabulary (severity, editions,
// parameter kinds), and whoever reads descriptors gets it with RuleHost.
@_exported public import CatalogueVocabulary
