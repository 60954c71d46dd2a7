// Builds the web table into the Python package (referee/server/page/), which the referee
// serves at "/" on its web port: index.html copied, src/main.ts bundled with the generated
// client (src/gen/, `buf generate`) and its runtime into one app.js. (app.css is written
// next by tools/page_css.py: the project's house style, then src/app.css.)
// Nothing is fetched at run time: no CDN, no font, no module loaded from elsewhere.
import { build } from "esbuild";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "referee", "server", "page");

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  legalComments: "none",
  logLevel: "warning",
});
await copyFile(join(here, "src", "index.html"), join(out, "index.html"));
