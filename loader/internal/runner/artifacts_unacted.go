package runner

// unactedDocs places the YAML resources docket keeps but does not act on
// (exposures, metrics, groups, semantic models, saved queries, unit
// tests) in their dbt places.
func (m *Manifest) unactedDocs(doc *ManifestJSON) {
}
