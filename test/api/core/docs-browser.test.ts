/**
 * The API reference at /docs as a partner opens it, in Debian's Chromium (playwright-core): the
 * page renders every operation of the document grouped by tag, an operation opens onto its
 * parameters, response schema and example, and nothing is fetched from anywhere but the server.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))('the /docs reference in Chromium', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  let doc: { paths: Record<string, Record<string, { operationId: string; tags?: string[] }>> };

  beforeAll(async () => {
    t = await buildTestApp(join(await mkdtemp(join(tmpdir(), 'lds-docs-')), 'data'));
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    doc = (await t.app.inject('/openapi.json')).json();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    page = await browser.newPage();
    page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) elsewhere.push(r.url()); });
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation of the document, grouped by tag, from files the server serves', async () => {
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    const shown = await page.locator('.opblock .opblock-summary-operation-id').allTextContents();
    expect(shown.map((s) => s.trim()).sort()).toEqual(operations.map((o) => o.operationId).sort());
    const tags = await page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')));
    expect(tags).toEqual(expect.arrayContaining(['fr', 'ca', 'be', 'multi-country', 'listing 3.2']));
    expect(elsewhere).toEqual([]);
  });

  it('opens an operation onto its parameters, its response schema and the example recorded on the samples', async () => {
    const report = page.locator('#operations-fr-get_api_v1_fr_report');
    await report.locator('.opblock-summary').click();
    const body = report.locator('.opblock-body');
    await body.waitFor();
    expect(await body.locator('.parameters .parameter__name').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('lat'), expect.stringContaining('radius')]));
    // The example: the Paris report recorded on the samples.
    const example = await body.locator('.responses-table .response[data-code="200"] .microlight, .responses-table .response[data-code="200"] pre').first().textContent();
    expect(example).toContain('"api_version"');
    // The schema tab: the response's shared component, expanded by name.
    await body.locator('.responses-table .response[data-code="200"] button[data-name="model"]').click();
    expect(await body.locator('.responses-table .response[data-code="200"] .model-box').first().textContent()).toContain('data');
  });

  it('filters the navigation by tag', async () => {
    await page.fill('.operation-filter-input', 'be');
    await page.waitForSelector('.opblock-tag[data-tag="fr"]', { state: 'detached' });
    const tags = await page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')));
    expect(tags).toEqual(['be']);
  });
});
