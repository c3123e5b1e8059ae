#!/usr/bin/env bash
# Installs what the real-VS-Code test harness needs (see test/harness/README.md):
#   - Debian packages: compilers and headers for code-server's native modules, ripgrep, chromium
#   - code-server (its bundled VS Code server) and playwright-core, into test/harness/node_modules
# Idempotent and fast when everything is already there. Run as root on Debian 12 with Node 20.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
harness="$here/test/harness"

log() { printf '[install-harness] %s\n' "$*"; }

# 1. Debian packages (only those missing).
pkgs=(build-essential python3 libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev ripgrep chromium)
missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-harness: missing packages (${missing[*]}) and not root" >&2
    exit 2
  fi
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "apt packages present"
fi

# 2. code-server + playwright-core in the harness's own package folder, unless already installed
#    at the pinned versions.
installed_ok() {
  node -e '
    const path = require("path");
    const want = require(path.join(process.argv[1], "package.json")).dependencies;
    for (const [name, version] of Object.entries(want)) {
      const pj = path.join(process.argv[1], "node_modules", name, "package.json");
      if (require(pj).version !== version) process.exit(1);
    }
    require.resolve(path.join(process.argv[1], "node_modules/code-server/lib/vscode/out/server-main.js"));
    // the native module whose build is the slow part of the install
    require.resolve(path.join(process.argv[1], "node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node"));
  ' "$harness" 2>/dev/null
}

if installed_ok; then
  log "code-server and playwright-core present"
else
  # @vscode/ripgrep downloads ripgrep from GitHub in its postinstall unless its cache holds the asset:
  # seed the cache from Debian's rg (the musl asset name is the one it looks for, even on glibc).
  tmp="$(node -p 'require("os").tmpdir()')"
  cache="$tmp/vscode-ripgrep-cache-1.15.11"
  asset="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  if [[ ! -s "$asset" ]]; then
    log "seeding $asset from $(command -v rg)"
    mkdir -p "$cache"
    stage="$(mktemp -d)"
    cp "$(command -v rg)" "$stage/rg"
    tar -czf "$asset" -C "$stage" rg
    rm -rf "$stage"
  fi
  log "npm ci in test/harness (compiles native modules, about 90 s on 2 cores)"
  cd "$harness"
  export TMPDIR="$tmp" npm_config_yes=true npm_config_unsafe_perm=true PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  if [[ -f package-lock.json ]]; then
    npm ci --no-audit --no-fund
  else
    npm install --no-audit --no-fund
  fi
  installed_ok || { echo "install-harness: code-server install incomplete" >&2; exit 1; }
fi
log "done"
