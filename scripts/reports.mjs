// Opens each HTML report in headless Chromium (Debian's, driven by playwright-core) and holds
// it to its JSON report: every number the page marks with `data-json="PATH"` must equal the
// value at PATH in the JSON (`a.b.0.c`; `.length` of a list is its length), the page must mark
// at least MIN of them, log no error, throw nothing, and ask for nothing over the network. A
// full-page screenshot of each goes to OUT/NAME.png for a person to look at.
//
// node scripts/reports.mjs OUT NAME=PAGE.html:REPORT.json ...
// Run by scripts/reports, which installs what it needs. Exits 1 naming each page and number that
// disagree, 2 on bad arguments.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const MIN = 4;

const [out, ...pairs] = process.argv.slice(2);
if (!out || pairs.length === 0) {
  console.error("usage: reports.mjs OUT NAME=PAGE.html:REPORT.json ...");
  process.exit(2);
}

function at(json, pointer) {
  let value = json;
  for (const part of pointer.split(".")) {
    if (part === "length" && Array.isArray(value)) {
      value = value.length;
    } else if (value !== null && typeof value === "object" && part in value) {
      value = value[part];
    } else {
      return { missing: part };
    }
  }
  return { value };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const failures = [];
let checked = 0;
try {
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const colon = pair.lastIndexOf(":");
    if (eq < 1 || colon < eq) {
      console.error(`reports.mjs: expected NAME=PAGE.html:REPORT.json, got ${pair}`);
      process.exit(2);
    }
    const name = pair.slice(0, eq);
    const page_file = pair.slice(eq + 1, colon);
    const json = JSON.parse(readFileSync(pair.slice(colon + 1), "utf8"));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") errors.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      errors.push(`asked the network for ${url}`);
      return route.abort();
    });
    await page.goto(pathToFileURL(path.resolve(page_file)).href, { waitUntil: "load" });
    await page.waitForFunction(() => document.documentElement.dataset.ready !== undefined, null, {
      timeout: 10000,
    });
    // The script's own filters work: hiding the notes hides every note row.
    const notes = await page.locator('tr[data-severity="info"]').count();
    const button = page.locator('button[data-filter="info"]').first();
    if (notes > 0 && (await button.count()) > 0) {
      await button.click();
      const shown = await page.locator('tr[data-severity="info"]:visible').count();
      if (shown !== 0) errors.push(`the notes filter left ${shown} of ${notes} note rows shown`);
      await button.click();
    }
    const marked = await page.$$eval("[data-json]", (els) =>
      els.map((e) => [e.getAttribute("data-json"), e.textContent.trim()]),
    );
    const thrown = await page.evaluate(() => document.documentElement.dataset.errors || "");
    if (thrown) errors.push(`window.onerror: ${thrown.trim()}`);
    if (marked.length < MIN) errors.push(`only ${marked.length} numbers marked with data-json (at least ${MIN} expected)`);
    for (const [pointer, shown] of marked) {
      const found = at(json, pointer);
      if ("missing" in found) {
        errors.push(`${pointer}: the JSON has no ${found.missing}`);
      } else if (String(found.value) !== shown) {
        errors.push(`${pointer}: the page shows ${shown}, the JSON holds ${JSON.stringify(found.value)}`);
      }
    }
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
    await context.close();
    checked += 1;
    if (errors.length > 0) {
      failures.push(`${name} (${page_file}):\n  ${errors.join("\n  ")}`);
    } else {
      console.log(`${name}: ${marked.length} numbers equal the JSON's, no error; ${path.join(out, name + ".png")}`);
    }
  }
} finally {
  await browser.close();
}
if (failures.length > 0) {
  console.error(`reports: ${failures.length} of ${checked} pages disagree or failed:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`reports: ${checked} pages opened in Chromium, each equal to its JSON`);
