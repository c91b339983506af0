# The registry this project installs from serves only the linux-x64 DuckDB bindings, so npm
# writes a lock without the other platforms optional packages and then `npm ci` refuses it
# ("Missing: @duckdb/node-bindings-darwin-arm64 from lock file"). This adds those entries
# (optional, with their os/cpu, never installed here). Idempotent; run after `npm install`.
import json, sys
p = sys.argv[1]
lock = json.load(open(p))
pk = lock['packages']
parent = pk['node_modules/@duckdb/node-bindings']
plat = {'darwin-arm64': (['darwin'], ['arm64'], None), 'darwin-x64': (['darwin'], ['x64'], None),
        'linux-arm64': (['linux'], ['arm64'], ['glibc']), 'linux-arm64-musl': (['linux'], ['arm64'], ['musl']),
        'linux-x64': (['linux'], ['x64'], ['glibc']), 'linux-x64-musl': (['linux'], ['x64'], ['musl']),
        'win32-arm64': (['win32'], ['arm64'], None), 'win32-x64': (['win32'], ['x64'], None)}
added = []
for name, ver in parent.get('optionalDependencies', {}).items():
    key = 'node_modules/' + name
    if key in pk: continue
    os_, cpu, libc = plat[name.split('node-bindings-')[1]]
    e = {'version': ver, 'cpu': cpu, 'license': 'MIT', 'optional': True, 'os': os_}
    if libc: e['libc'] = libc
    pk[key] = e; added.append(name)
lock['packages'] = dict(sorted(pk.items(), key=lambda kv: (kv[0] != '', kv[0])))
json.dump(lock, open(p, 'w'), indent=2); open(p, 'a').write('\n')
print('added', added)
