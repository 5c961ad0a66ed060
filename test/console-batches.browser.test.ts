// The console's batches page in a real browser (playwright-core driving Debian's Chromium) against the
// real server process: upload a small CSV of sandbox name-match rows, watch its progress reach
// completed with the right counts, download the results (row order; the row, reference_id and status
// columns), and a validate_only upload with a bad row shown by row and field. Screenshots go to
// test-artifacts/ (docs/console-batches.png is `batches-checked`).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, signIn, skipWithoutChromium, startConsoleServer, type ConsoleServer } from './browser.js';

const refs = ['ui-1', 'ui-2', 'ui-3', 'ui-4'].map((r) => `${r}-${Date.now()}`);
// Row 3 has no name_2: invalid, never run; the others run.
const CSV = [
  'reference_id,consent,name_1,name_2',
  `${refs[0]},true,Priya Sharma,PRIYA SHARMA`,
  `${refs[1]},true,Priya Sharma,Rahul Verma`,
  `${refs[2]},true,Anil Kumar,`,
  `${refs[3]},true,Anil Kumar,Anil Kumar`,
].join('\n');

describe('console batches page in a browser', { skip: skipWithoutChromium }, () => {
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  const upload = async (name: string, text: string, validateOnly: boolean) => {
    await page.getByLabel('File (.csv or .ndjson)').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    await page.getByLabel('Operation').selectOption('name-match');
    await page.getByLabel('Validate only').setChecked(validateOnly);
    await page.getByRole('button', { name: 'Upload' }).click();
  };

  before(async () => {
    const user = { email: 'ops@acme.test', password: 'correct horse battery' };
    server = await startConsoleServer({ ...user, admin: false });
    browser = await launchBrowser();
    page = await (await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } })).newPage();
    await signIn(page, server.base, user);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  let id = '';

  it('uploads a CSV and follows its progress to completed, with the counts', async () => {
    await page.getByRole('link', { name: 'Batches' }).click();
    await page.getByRole('heading', { name: 'Batches', exact: true }).waitFor();
    await page.getByText('No sandbox batches yet.').waitFor();
    await upload('people.csv', CSV, false);
    const accepted = await page.getByRole('status').filter({ hasText: 'accepted' }).innerText();
    id = /bat_[A-Za-z0-9]+/.exec(accepted)![0];
    const row = page.getByTestId(`batch-${id}`);
    await row.getByTestId('status').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
    assert.equal(await row.getByTestId('done').innerText(), '4 / 4');
    assert.equal(await row.getByTestId('counts').innerText(), '3 ok · 0 failed · 1 invalid · 0 pending');
    const bar = row.getByRole('progressbar');
    assert.equal(await bar.getAttribute('value'), '4');
    assert.equal(await bar.getAttribute('max'), '4');
    assert.equal(await row.getByRole('button', { name: 'Cancel' }).count(), 0, 'an ended batch has no cancel');
    await shot('batches-completed');
  });

  it('downloads the results in row order, with the row, reference_id and status columns', async () => {
    const row = page.getByTestId(`batch-${id}`);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'CSV' }).click()]);
    assert.equal(download.suggestedFilename(), `${id}-results.csv`);
    const file = `${ARTIFACTS}batch-results.csv`;
    await download.saveAs(file);
    const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
    assert.deepEqual(header!.split(',').slice(0, 3), ['row', 'reference_id', 'status']);
    assert.deepEqual(lines.map((l) => l.split(',').slice(0, 3)), refs.map((r, i) => [String(i + 1), r, i === 2 ? 'invalid' : 'success']));
  });

  it('a validate_only upload shows the bad row and field, and runs nothing', async () => {
    const bad = ['reference_id,consent,name_1,name_2', 'chk-1,true,Priya Sharma,Priya Sharma', 'chk-2,true,Priya Sharma,'].join('\n');
    await upload('check.csv', bad, true);
    await page.getByRole('status').filter({ hasText: 'Checked: 1 of 2 rows are invalid; nothing was run' }).waitFor();
    const errors = page.getByRole('table', { name: 'Invalid rows' });
    const cells = await errors.getByRole('row').nth(1).getByRole('cell').allInnerTexts();
    assert.deepEqual(cells.slice(0, 2), ['2', 'name_2']);
    assert.equal(await page.getByRole('table', { name: 'Batches' }).locator('tbody tr').count(), 1, 'no batch was created');
    await shot('batches-checked');
  });

  it('an upload that cannot be read is refused whole, its row and field shown', async () => {
    await upload('typo.csv', 'reference_id,consent,name_1,nmae_2\nx,true,A B,A B\n', false);
    await page.getByRole('alert').filter({ hasText: 'nothing was created' }).waitFor();
    const cells = await page.getByRole('table', { name: 'Invalid rows' }).getByRole('row').nth(1).getByRole('cell').allInnerTexts();
    assert.deepEqual(cells.slice(0, 2), ['0', 'nmae_2']);
    assert.equal(await page.getByRole('table', { name: 'Batches' }).locator('tbody tr').count(), 1);
  });
});
