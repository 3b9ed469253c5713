"""What the repository rules that fetch npm tarballs (@azmcp, @buildifier) share."""

def npm_tarball_urls(rctx, path):
    """The URLs of the tarball at `path` (`@scope/name/-/name-VERSION.tgz`), best first.

    The registry `npm config get registry` names comes first, so a machine behind a mirror uses
    it, then registry.npmjs.org.

    Args:
      rctx: the repository rule's context.
      path: the tarball's path under a registry.

    Returns:
      A list of URLs for download_and_extract.
    """
    registries = []
    npm = rctx.which("npm")
    if npm:
        result = rctx.execute([npm, "config", "get", "registry"], timeout = 30)
        configured = result.stdout.strip().rstrip("/")
        if result.return_code == 0 and configured.startswith("http"):
            registries.append(configured)
    if "https://registry.npmjs.org" not in registries:
        registries.append("https://registry.npmjs.org")
    return ["%s/%s" % (registry, path) for registry in registries]
