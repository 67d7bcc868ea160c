# ringql's byte-level ingest addon (see README.md); built by `npm ci` through the root package's
# install script: node-gyp rebuild -C src/native (Node headers from npm_config_nodedir).
{
  "targets": [
    {
      "target_name": "ringql_ingest",
      "sources": ["addon.c", "transform.c", "tape.c", "es-number.c", "iso-time.c", "malloc-tune.c", "scan-value.c", "scan-body.c", "ts-order.c", "crc32.c"],
      "cflags": ["-O3", "-std=gnu11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags!": ["-O2"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
