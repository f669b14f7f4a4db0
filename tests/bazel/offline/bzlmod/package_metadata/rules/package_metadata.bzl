"""Stand-in for package_metadata: a rule that records nothing.

go_deps' BUILD files load it; nothing here reads what it would record.
"""

def _impl(_ctx):
    return []

_package_metadata = rule(
    implementation = _impl,
    attrs = {
        "attributes": attr.label_list(),
        "purl": attr.string(),
    },
)

def package_metadata(name, purl = None, attributes = [], visibility = None, **kwargs):  # buildifier: disable=unused-variable
    _package_metadata(
        name = name,
        purl = purl,
        attributes = attributes,
        visibility = visibility,
        applicable_licenses = [],
    )
