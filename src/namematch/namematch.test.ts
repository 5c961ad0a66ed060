import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadPairs, scoreAll, stats } from '../../bench/name-match.js';
import { ALGORITHM_VERSION, CATEGORIES, DEFAULT_THRESHOLDS, matchNames, NameMatchInputError, REASON_CODES, type NameMatchResult } from './index.js';

const codes = (r: NameMatchResult) => r.reasons.map((x) => x.code);

function assertShape(r: NameMatchResult) {
  assert.deepEqual(Object.keys(r).sort(), ['algorithm_version', 'category', 'decision', 'match', 'optimistic_score', 'pessimistic_score', 'reasons', 'score']);
  for (const s of [r.score, r.optimistic_score, r.pessimistic_score]) assert.ok(Number.isInteger(s) && s >= 0 && s <= 100, `score ${s}`);
  assert.ok(r.pessimistic_score <= r.score && r.score <= r.optimistic_score);
  assert.ok(CATEGORIES.includes(r.category));
  assert.ok(['approve', 'review', 'reject'].includes(r.decision));
  assert.equal(r.match, r.decision === 'approve');
  assert.equal(r.algorithm_version, ALGORITHM_VERSION);
  for (const reason of r.reasons) {
    assert.ok(reason.code in REASON_CODES, reason.code);
    assert.ok(reason.detail.length > 0);
  }
}

test('every Indian script the engine reads matches its Latin spelling', () => {
  const cases: Array<[string, string, string]> = [
    ['Devanagari', 'रमेश कुमार शर्मा', 'Ramesh Kumar Sharma'],
    ['Bengali', 'সৌরভ গাঙ্গুলী', 'Sourav Ganguly'],
    ['Gurmukhi', 'ਗੁਰਪ੍ਰੀਤ ਸਿੰਘ', 'Gurpreet Singh'],
    ['Gujarati', 'હાર્દિક પંડ્યા', 'Hardik Pandya'],
    ['Odia', 'ସୁରେଶ ମହାନ୍ତି', 'Suresh Mohanty'],
    ['Tamil', 'முருகன் செல்வம்', 'Murugan Selvam'],
    ['Telugu', 'పవన్ కళ్యాణ్', 'Pawan Kalyan'],
    ['Kannada', 'ಅನಿಲ್ ಕುಂಬ್ಳೆ', 'Anil Kumble'],
    ['Malayalam', 'രാജേഷ് കുമാർ', 'Rajesh Kumar'],
  ];
  for (const [script, native, latin] of cases) {
    const r = matchNames(native, latin);
    assertShape(r);
    assert.equal(r.decision, 'approve', `${script}: ${native} / ${latin} → ${r.score}`);
    assert.ok(r.reasons.some((x) => x.code === 'TRANSLITERATED' && x.detail.includes(script)), `${script} named in the reasons`);
  }
  // The same name in two scripts, and a name mixing two scripts.
  assert.equal(matchNames('नरेन्द्र मोदी', 'નરેન્દ્ર મોદી').decision, 'approve');
  assert.equal(matchNames('Ramesh कुमार', 'Ramesh Kumar').decision, 'approve');
});

test('Indic script against a different Latin name is rejected', () => {
  assert.equal(matchNames('रमेश कुमार', 'Suresh Kumar').decision, 'reject');
  assert.equal(matchNames('ரமேஷ்', 'Suresh').decision, 'reject');
});

test('Perso-Arabic is compared on consonants and never approved at the default thresholds', () => {
  const same = matchNames('محمد عمران خان', 'Mohammed Imran Khan');
  assert.equal(same.decision, 'review');
  assert.ok(codes(same).includes('CONSONANTS_ONLY'));
  assert.ok(same.score < DEFAULT_THRESHOLDS.approve_at);
  // Amir and Umar share their consonants: the engine cannot tell them apart, so it does not approve.
  assert.notEqual(matchNames('عامر خان', 'Umar Khan').decision, 'approve');
  assert.equal(matchNames('ذاکر حسین', 'Rahul Sharma').decision, 'reject');
  assert.equal(matchNames('محمد عمران خان', 'محمد عمران خان').decision, 'approve');
});

test('what the comparison did is in the reasons', () => {
  const expect = (a: string, b: string, code: keyof typeof REASON_CODES, decision = 'approve') => {
    const r = matchNames(a, b);
    assertShape(r);
    assert.ok(codes(r).includes(code), `${a} / ${b}: ${codes(r).join(',')}`);
    assert.equal(r.decision, decision, `${a} / ${b} → ${r.score}`);
    return r;
  };
  const cases: Array<[string, string, keyof typeof REASON_CODES, string?]> = [
    ['Ramesh Kumar', 'RAMESH  KUMAR', 'EXACT_MATCH'],
    ['Late Shri Mohan Lal Sharma', 'Mohan Lal Sharma', 'HONORIFIC_REMOVED'],
    ['Ramesh Kumar S/O Suresh Kumar', 'Ramesh Kumar', 'RELATION_REMOVED'],
    ['Ramesh Kumar S/O Suresh Kumar', 'Suresh Kumar', 'RELATION_REMOVED', 'reject'],
    ['S. Ramesh', 'Ramesh Subramanian', 'INITIAL_MATCHED'],
    ['Kumar Ramesh', 'Ramesh Kumar', 'ORDER_SWAPPED'],
    ['Saikrishna Reddy', 'Sai Krishna Reddy', 'TOKENS_JOINED'],
    ['Rameshbhai Patel', 'Ramesh Patel', 'JOINED_SUFFIX'],
    ['Venkatasubramanian Ramakrishnan', 'Venkatasubramanian Ramakri', 'TRUNCATED'],
    ['Sreenivasa Rao', 'Srinivasa Rao', 'SPELLING_VARIANT'],
    ['Md. Salim', 'Mohammed Salim', 'NAME_VARIANT'],
    ['Lakshmi Narayanan', 'Laxmi Narayanan', 'SPELLING_VARIANT'],
    ['Rahul Kumar Sharma', 'Rahul Sharma', 'TOKEN_MISSING'],
    ['Priya Sharma', 'Priya Verma', 'TOKEN_MISMATCH', 'reject'],
    ['Ramesh alias Pappu Yadav', 'Ramesh Yadav', 'ALIAS_SPLIT'],
    ['Ramesh Kumar 2', 'Ramesh Kumar', 'DIGITS_IGNORED'],
    ['Rakesh Roshan', 'Rajesh Roshan', 'TOKEN_MISMATCH', 'reject'],
  ];
  for (const [a, b, code, decision] of cases) expect(a, b, code, decision);
});

test('near-miss different people are not approved and brothers sharing initials are rejected', () => {
  for (const [a, b] of [['Anil Sharma', 'Sunil Sharma'], ['Asha Rani', 'Usha Rani'], ['Suresh Patil', 'Ramesh Patil'], ['R. Suresh Kumar', 'R. Ramesh Kumar'], ['Harpreet Kaur', 'Harpreet Singh'], ['Kiran Kumar', 'Karan Kumar']]) {
    assert.equal(matchNames(a, b).decision, 'reject', `${a} / ${b}`);
  }
});

test('vowels no spelling explains make neighbouring names, never a confident answer either way', () => {
  for (const [a, b] of [['Manisha Koirala', 'Manasa Koirala'], ['Ranjana Desai', 'Ranjani Desai'], ['Sonal Mansingh', 'Sonali Mansingh'], ['Chetan Bhagat', 'Chetna Bhagat']]) {
    const r = matchNames(a, b);
    assertShape(r);
    assert.equal(r.decision, 'reject', `${a} / ${b} → ${r.score}`);
    assert.notEqual(r.category, 'NO_MATCH', `${a} / ${b}: the optimistic reading keeps a typing slip possible`);
    assert.ok(codes(r).includes('NEAR_MISS'), `${a} / ${b}: ${codes(r).join(',')}`);
  }
  // The vowels Latin writes for one another still pass: the schwa as a/e/o/u, e↔i, o↔u and e↔i at the start, a final a.
  // Prakash Padukone and Prakash Padukona differ in their last vowel, however the edit distance counts it.
  assert.equal(matchNames('Prakash Padukone', 'Prakash Padukona').decision, 'reject');
  for (const [a, b] of [
    ['Shankar Rao', 'Shanker Rao'],
    ['Fatima Shaikh', 'Fatema Shaikh'],
    ['Usman Ali', 'Osman Ali'],
    ['Eshwar Prasad', 'Ishwar Prasad'],
    ['Vijay Kumar', 'Vijaya Kumar'],
    ['Yusuf Khan', 'Yousuf Khan'],
    ['Anne Mathew', 'Ann Mathew'],
    ['Mohammad Tariq', 'Mohd Tarique'],
    ['Ayesha Siddiqui', 'Ayesha Siddique'],
  ]) {
    assert.equal(matchNames(a, b).decision, 'approve', `${a} / ${b}`);
  }
  // A spelling that changes a vowel is approved but never a DIRECT_MATCH: its pessimistic reading stays low.
  const shanker = matchNames('Shankar Rao', 'Shanker Rao');
  assert.ok(shanker.category !== 'DIRECT_MATCH' && shanker.pessimistic_score < 85, `${shanker.category} ${shanker.pessimistic_score}`);
});

test('long words one consonant apart are neighbours, not the same word', () => {
  const r = matchNames('Harsimrat Kaur Badal', 'Harsimran Kaur Badal');
  assert.equal(r.decision, 'reject', `→ ${r.score}`);
  assert.ok(codes(r).includes('NEAR_MISS'));
});

test('a wife or daughter carrying the other name whole is another person', () => {
  for (const [a, b] of [['Sunita Rajendra Kale', 'Rajendra Kale'], ['Preeti Jignesh Shah', 'Jignesh Shah'], ['Mrs. Rohini Vasant Pande', 'Vasant Pande']]) {
    const r = matchNames(a, b);
    assert.equal(r.decision, 'reject', `${a} / ${b} → ${r.score}`);
    assert.ok(codes(r).includes('TOKEN_MISSING'));
  }
  // An omitted middle name or surname still approves.
  assert.equal(matchNames('Ajinkya Madhukar Rahane', 'Ajinkya Rahane').decision, 'approve');
});

test('a man\'s title against a woman\'s is two people, however alike the words', () => {
  for (const [a, b] of [['Mr. Kiran Rao', 'Mrs. Kiran Rao'], ['Shri Navdeep Sandhu', 'Smt. Navdeep Sandhu'], ['श्रीमती सुनीता', 'Shri Sunita']]) {
    const r = matchNames(a, b);
    assertShape(r);
    assert.equal(r.decision, 'reject', `${a} / ${b} → ${r.score}`);
    assert.ok(r.reasons.some((x) => x.code === 'TOKEN_MISMATCH' && x.detail.includes('titles')), `${a} / ${b}`);
    assert.ok(!codes(r).includes('EXACT_MATCH'));
  }
  // Titles of one gender, or a title on one name only, change nothing.
  assert.equal(matchNames('Smt. Lata Deshpande', 'Dr. (Mrs.) Lata Deshpande').decision, 'approve');
  assert.equal(matchNames('Mr. Kiran Rao', 'Kiran Rao').decision, 'approve');
});

test('ज्ञ matches every way Latin writes it: gy, dny, jn, gn', () => {
  for (const [a, b] of [['Dnyaneshwar Bhosale', 'Gyaneshwar Bhosale'], ['ज्ञानेश्वर भोसले', 'Dnyaneshwar Bhosale'], ['Jnanesh Hegde', 'Gyanesh Hegde'], ['प्रज्ञा पाटील', 'Pradnya Patil']]) {
    assert.equal(matchNames(a, b).decision, 'approve', `${a} / ${b}`);
  }
  // A j and an n that are not ज्ञ stay as they are.
  assert.equal(matchNames('Rajnish Kumar', 'रजनीश कुमार').decision, 'approve');
});

test('Gujarati spellings: sinh is Singh, and a joined bhai after a b keeps its stem', () => {
  for (const [a, b] of [['નરસિંહ મહેતા', 'Narsinh Mehta'], ['Ravindrasinh Jadeja', 'Ravindrasingh Jadeja'], ['Vallabhbhai Patel', 'Vallabh Patel']]) {
    const r = matchNames(a, b);
    assert.equal(r.decision, 'approve', `${a} / ${b} → ${r.score}`);
  }
  assert.ok(codes(matchNames('Vallabhbhai Patel', 'Vallabh Patel')).includes('JOINED_SUFFIX'));
});

test('surname families, a joined kumar, Dravidian voicing and Christian name forms are one name (1.3.0)', () => {
  for (const [a, b] of [
    ['Rakesh Agarwal', 'Rakesh Agrawal'], // a vowel moved across r: metathesis, and the Agarwal family
    ['Vinodkumar Nair', 'Vinod Nair'], // a joined kumar left out
    ['Senthil', 'Sendhil'], // t/d inside a one-word Tamil name
    ['Murugan', 'Murukan'], // g/k
    ['Joseph Kurian', 'Ouseph Kurian'], // a Malayalam form of a Christian name
    ['Jacob Philip', 'Chacko Philip'],
  ]) {
    const r = matchNames(a, b);
    assert.equal(r.decision, 'approve', `${a} / ${b} → ${r.score}`);
  }
  assert.ok(codes(matchNames('Vinodkumar Nair', 'Vinod Nair')).includes('JOINED_SUFFIX'));
  // Medial voicing may also make a neighbouring name: approved, but never a DIRECT_MATCH.
  assert.notEqual(matchNames('Pradeep', 'Pratheep').category, 'DIRECT_MATCH');
  // Voicing at a word's edge is another name; a joined kumar against another word is a contradiction.
  for (const [a, b] of [['Anand', 'Anant'], ['Tara', 'Dara'], ['Ramkumar', 'Ram Prasad'], ['Rajkumar Yadav', 'Ramkumar Yadav']]) {
    assert.equal(matchNames(a, b).decision, 'reject', `${a} / ${b}`);
  }
});

test('a feminine form is another person: -a after i and l, m, n or p, and Kumar against Kumari (1.3.0)', () => {
  for (const [a, b] of [['Naveen Reddy', 'Naveena Reddy'], ['Sunil Gupta', 'Sunila Gupta'], ['Jameel Khan', 'Jameela Khan'], ['Prem Kumar', 'Prema Kumari']]) {
    const r = matchNames(a, b);
    assert.equal(r.decision, 'reject', `${a} / ${b} → ${r.score}`);
  }
  // -a after i is a neighbour: a contradiction, but not a confident one on that word alone.
  assert.equal(matchNames('Naveen', 'Naveena').category, 'POOR_PARTIAL_MATCH');
  // A final -a elsewhere stays optional: masculine names take it too.
  for (const [a, b] of [['Shiva Prasad', 'Shiv Prasad'], ['Vijay Kumar', 'Vijaya Kumar'], ['Prasant Roy', 'Prasanta Roy']]) {
    assert.equal(matchNames(a, b).decision, 'approve', `${a} / ${b}`);
  }
});

test('common surnames and gender words weigh less than rare words', () => {
  // Sharing only a common surname is weaker evidence than sharing a rare one.
  for (const common of ['Shukla', 'Gaikwad', 'Mohanty', 'Barua']) {
    const shared = matchNames(`Amit ${common}`, `Rohit ${common}`);
    assert.equal(shared.decision, 'reject');
    assert.ok(shared.score < matchNames('Amit Koirala', 'Rohit Koirala').score, `${common}: ${shared.score}`);
  }
  // Chanu (Manipuri) marks a woman, like Devi: against Singh it is two people.
  assert.equal(matchNames('Bembem Chanu', 'Bembem Singh').decision, 'reject');
  assert.equal(matchNames('Bhattacharjee Debjani', 'Debjani Bhattacharyya').decision, 'approve');
});

test('the same inputs always give the same answer, whatever came before', () => {
  const first = matchNames('Dr. S. Ramesh Kumar', 'Ramesh Kumar Subramanian');
  for (const p of loadPairs().slice(0, 50)) matchNames(p.name_1, p.name_2);
  assert.deepEqual(matchNames('Dr. S. Ramesh Kumar', 'Ramesh Kumar Subramanian'), first);
  assert.deepEqual(matchNames('Ramesh Kumar Subramanian', 'Dr. S. Ramesh Kumar').score, first.score);
});

test('thresholds decide, and bad thresholds name their field', () => {
  const r = matchNames('Arjun Kapoor', 'Arjun');
  assert.equal(matchNames('Arjun Kapoor', 'Arjun', { approve_at: r.score + 1, review_at: 10 }).decision, 'review');
  assert.equal(matchNames('Arjun Kapoor', 'Arjun', { approve_at: 100, review_at: r.score + 1 }).decision, 'reject');
  assert.equal(matchNames('Arjun Kapoor', 'Arjun', { approve_at: r.score }).match, true);
  const field = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof NameMatchInputError);
      return `${e.field}:${e.code}`;
    }
    return 'no error';
  };
  assert.equal(field(() => matchNames('A B', 'A B', { approve_at: 101 })), 'approve_at:invalid');
  assert.equal(field(() => matchNames('A B', 'A B', { review_at: Number.NaN })), 'review_at:invalid');
  assert.equal(field(() => matchNames('A B', 'A B', { approve_at: 50, review_at: 60 })), 'review_at:invalid');
});

test('bad input gets a typed validation error naming the field, or a clear result', () => {
  const field = (a: unknown, b: unknown) => {
    try {
      matchNames(a, b);
      return 'no error';
    } catch (e) {
      assert.ok(e instanceof NameMatchInputError, String(e));
      assert.ok(e.message.includes(e.field));
      return `${e.field}:${e.code}`;
    }
  };
  assert.equal(field('', 'Ramesh'), 'name_1:required');
  assert.equal(field('Ramesh', '   '), 'name_2:required');
  assert.equal(field('Ramesh', undefined), 'name_2:required');
  assert.equal(field(42, 'Ramesh'), 'name_1:required');
  assert.equal(field('a'.repeat(201), 'Ramesh'), 'name_1:too_long');
  assert.equal(field('Ramesh', 'र'.repeat(201)), 'name_2:too_long');
  assert.equal(field('12345', 'Ramesh'), 'name_1:no_letters');
  assert.equal(field('Ramesh', '..//--'), 'name_2:no_letters');
  assert.equal(field('Иван Петров', 'Ivan Petrov'), 'name_1:unsupported_script');
  assert.equal(field('Ramesh', 'රමේෂ්'), 'name_2:unsupported_script');
  assert.equal(field(`${'Ramesh '.repeat(28)}Kumar`.slice(0, 200), 'Ramesh Kumar'), 'no error');

  const honorificsOnly = matchNames('Mr. Dr. Shri', 'Ramesh Kumar');
  assertShape(honorificsOnly);
  assert.equal(honorificsOnly.decision, 'reject');
  assert.equal(honorificsOnly.score, 0);
  assert.ok(codes(honorificsOnly).includes('NO_NAME_LEFT'));
  const relationOnly = matchNames('S/O Mohan Lal', 'Mohan Lal');
  assert.equal(relationOnly.decision, 'reject');
  assert.ok(codes(relationOnly).includes('NO_NAME_LEFT'));
});

test('any string up to 200 characters gives a result or a NameMatchInputError, never a crash', () => {
  const alphabet = fc.constantFrom(...'aAbkmrsSy .-/\'@0१राम்ரகাকਕકକత ಕമ്ഴ്ൻعمر\u200d\u0301ЖⅫ😀'.split(''));
  fc.assert(
    fc.property(fc.array(alphabet, { minLength: 0, maxLength: 60 }).map((a) => a.join('')), fc.array(alphabet, { maxLength: 60 }).map((a) => a.join('')), (a, b) => {
      try {
        assertShape(matchNames(a, b));
      } catch (e) {
        if (!(e instanceof NameMatchInputError)) throw e;
      }
    }),
    { numRuns: 400, seed: 24 },
  );
});

test('the labelled set holds its floor: ≥ 95 % decided right on every split, no confident mistake', () => {
  const rows = scoreAll(loadPairs());
  for (const split of ['dev', 'heldout', 'fresh', 'fresh2', 'fresh3', 'fresh4'] as const) {
    const s = stats(rows.filter((r) => r.pair.split === split));
    assert.ok(s.right / s.n >= 0.95, `${split}: ${s.right}/${s.n} right`);
    assert.equal(s.confident, 0, `${split}: confident mistakes`);
    // The splits tuned on (dev) or read after their first look (held-out) also keep their wrong answers under 2 %.
    if (split === 'dev' || split === 'heldout') assert.ok((s.right + s.review) / s.n >= 0.98, `${split}: right or review`);
  }
  const all = stats(rows);
  assert.ok(all.right / all.n >= 0.97, `all: ${all.right}/${all.n} right`);
});

test('typical pairs take well under a millisecond', () => {
  const pairs = loadPairs().slice(0, 100);
  for (const p of pairs) matchNames(p.name_1, p.name_2);
  const times: number[] = [];
  for (const p of pairs) {
    const t0 = performance.now();
    matchNames(p.name_1, p.name_2);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  assert.ok(times[50]! < 1, `median ${times[50]} ms`);
});
