// Owns what the engine knows about Indian names as words: titles and honorifics, relation markers,
// alias markers, the tokens so common that sharing them says little (Kumar, Singh, Devi…), common
// surnames, suffixes written joined to a name (Rameshbhai), and the groups of spellings that are one
// name (Mohammed/Mohd/Md, Lakshmi/Laxmi, Banerjee/Bandyopadhyay). Entries are Latin spellings; the
// engine compares them through their phonetic keys, so each covers its transliterations too.
// Nothing here names a person: these are words of the naming systems, not of any data set.

/** Titles dropped from the front of a name (in any script: compared after transliteration). */
export const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mst', 'mx', 'dr', 'doctor', 'shri', 'sri', 'shree', 'sree', 'shriman', 'smt', 'shrimati', 'srimati',
  'sushri', 'kumari', 'kum', 'km', 'late', 'lt', 'capt', 'captain', 'col', 'colonel', 'maj', 'major', 'gen', 'brig', 'cdr',
  'adv', 'advocate', 'prof', 'professor', 'er', 'master', 'mast', 'sh', 'thiru', 'tiru', 'thirumathi', 'tirumati', 'tmt',
  'janab', 'hafiz', 'haji', 'hajee', 'hazrat', 'maulana', 'mohtarma', 'sardar', 'sardarni', 'pandit', 'pt', 'sir', 'madam',
  'rev', 'fr', 'svargiya', 'swargiya', 'sv', 'svargiy',
]);

/** Titles that say whether the person is a man or a woman: opposed titles on the two names are two people (Mr, Mrs). */
export const GENDERED_TITLES: Record<'male' | 'female', string[]> = {
  male: ['mr', 'shri', 'sri', 'shree', 'sree', 'shriman', 'thiru', 'tiru', 'janab', 'master', 'mast', 'sardar', 'sh'],
  female: ['mrs', 'ms', 'miss', 'mst', 'smt', 'shrimati', 'srimati', 'sushri', 'kumari', 'kum', 'km', 'thirumathi', 'tirumati', 'tmt', 'mohtarma', 'sardarni', 'madam'],
};

/** Titles that follow a name ("Patel Saheb", "Sharma ji"), dropped from the end of a name of two or more words. */
export const TRAILING_HONORIFICS = new Set(['ji', 'jee', 'sahab', 'saheb', 'sahib', 'retd', 'retired', 'jr', 'junior', 'sr', 'senior']);

/** Honorifics in Indian scripts whose transliteration would not be recognised above (डॉ is "do"). */
export const NATIVE_HONORIFICS = new Set(['डॉ', 'डा', 'स्व', 'स्वर्गीय', 'कु', 'श्रीमान', 'सुश्री', 'ডাঃ', 'ডা']);

/**
 * A relation marker: what follows it is another person (a father, husband or guardian), dropped.
 * Matched on the lower-cased name, with its boundaries spelt out since \b does not know Indian scripts.
 */
export const RELATION_MARKER =
  /(?:^|[\s,.(;:])((?:s|d|w|c|h|wd)\s*[/\\]\s*o|[sdwch]\s*\.\s*o\s*\.|son\s+of|daughter\s+of|wife\s+of|husband\s+of|widow\s+of|care\s+of|guardian|bin|binti|binte|ibn|पुत्र|पुत्री|सुपुत्र|सुपुत्री|पत्नी|द्वारा)(?=$|[\s.,:;)\-])/u;

/** Alias markers: the name is given in two forms, either of which may be the one compared. */
export const ALIAS_MARKER = /\s(?:alias|urf|aka|a\.k\.a\.?|@)\s/u;

/** Tokens so common in Indian names that sharing them is weak evidence (weights; 1 is a rare token). */
export const COMMON_WEIGHTS: Array<[number, string[]]> = [
  [0.3, ['kumar', 'kumari', 'singh', 'kaur', 'devi', 'bai', 'bhai', 'ben', 'bahen', 'behen', 'lal', 'chand', 'rani', 'begum', 'begam', 'khatun', 'bibi', 'nisa', 'nissa', 'bano', 'banu', 'bhau', 'chanu']],
  [0.4, ['mohammed', 'syed', 'shaikh', 'abdul', 'sri', 'venkata', 'naga', 'sai', 'bala', 'ram', 'mohd', 'rao', 'prasad', 'nath', 'das']],
  [
    0.55,
    [
      'sharma', 'verma', 'gupta', 'patel', 'shah', 'reddy', 'naidu', 'nair', 'pillai', 'iyer', 'iyengar', 'menon', 'roy', 'ghosh',
      'bose', 'banerjee', 'chatterjee', 'mukherjee', 'sen', 'dutta', 'yadav', 'khan', 'ali', 'ahmed', 'hussain', 'pathan',
      'qureshi', 'ansari', 'siddiqui', 'joshi', 'jain', 'agarwal', 'mehta', 'desai', 'kulkarni', 'deshpande', 'patil', 'pawar',
      'jadhav', 'shinde', 'chavan', 'gowda', 'shetty', 'hegde', 'naik', 'nayak', 'mishra', 'tiwari', 'pandey', 'dubey', 'chauhan',
      'thakur', 'rathore', 'gill', 'sandhu', 'sidhu', 'dhillon', 'grewal', 'chaudhary', 'mandal', 'biswas', 'sarkar', 'saha', 'pal',
      'paul', 'thomas', 'george', 'joseph', 'mathew', 'varghese', 'fernandes', 'dsouza', 'rodrigues', 'pereira', 'kapoor', 'khanna',
      'malhotra', 'arora', 'bhatia', 'sinha', 'srivastava', 'tripathi', 'chaturvedi', 'dwivedi', 'trivedi', 'bhatt', 'vyas', 'parekh',
      'mirza', 'pillay', 'raju', 'murthy', 'swamy', 'achari', 'goud', 'varma', 'panicker', 'kurian', 'chacko',
      'shukla', 'saxena', 'bhardwaj', 'upadhyay', 'pandit', 'rathod', 'solanki', 'parmar', 'prajapati', 'thakkar',
      'rana', 'rawat', 'negi', 'bisht', 'thapa', 'saini', 'khatri', 'kamble', 'gaikwad', 'sawant', 'bhosale', 'mahato', 'mondal',
      'mallick', 'majumdar', 'mitra', 'chakraborty', 'bhattacharya', 'barua', 'gogoi', 'bora', 'sahu', 'behera', 'mohanty',
      'panda', 'pradhan', 'dsilva', 'dcosta', 'pinto', 'lobo', 'krishnan', 'nambiar', 'kutty', 'sangma', 'marak',
    ],
  ],
];

/**
 * Particles written joined to a given name (Rameshbhai, Laxmibai, Jamshedji): the stem is the name.
 * Name words such as Kumar or Prasad are not among them: "Ramkumar" is matched as "Ram Kumar" joined.
 */
export const JOINED_SUFFIXES = ['bhai', 'ben', 'bahen', 'behen', 'bai', 'ji', 'jee', 'bhau'];

/**
 * Name words written joined to a given name and as often left out (Sanjaykumar, Sanjay): the stem is
 * the name. Unlike the particles above, the joined word is still a given name, not a father's name.
 * "Ram Kumar" against "Ramkumar" is matched as words joined; this is "Ramkumar" against "Ram".
 */
export const JOINED_NAME_SUFFIXES = ['kumar'];

/** Words that mark a man's or a woman's name: one of each left unmatched is a strong sign of two people. */
export const GENDERED: Record<'male' | 'female', string[]> = {
  male: ['singh', 'kumar', 'bhai'],
  female: ['kaur', 'devi', 'ben', 'bahen', 'behen', 'bai', 'kumari', 'begum', 'khatun', 'bibi', 'chanu'],
};

/** Words that look like spellings of one another but are different names. */
export const DISTINCT_NAMES: Array<[string, string]> = [
  ['khan', 'khanna'],
  ['shah', 'shaha'],
];
/** Prefixes written joined to a given name (Srilakshmi): the rest is the name. */
export const JOINED_PREFIXES = ['sri', 'shri', 'shree', 'sree'];

/**
 * Christian given names and the forms Kerala's Syrian Christians (Malayalam, from Syriac) and others in
 * India write for the same name, used by the same person in different records (Joseph, Ouseph; Jacob,
 * Chacko). Only forms of one name: pet names (Tomy, Babu) and names that are also another person's
 * surname-like father's name in the same position (George, Varghese) are not here.
 */
const CHRISTIAN_NAMES: string[][] = [
  ['joseph', 'jose', 'ouseph', 'ousep', 'josef'],
  ['thomas', 'thoma', 'thomman', 'tomas'],
  ['mathew', 'matthew', 'mathai', 'mathen'],
  ['john', 'yohannan', 'yohanan'],
  ['peter', 'pathrose', 'pathros', 'pathrose'],
  ['abraham', 'avirah', 'abram'],
  ['jacob', 'chacko', 'chako', 'yakob'],
  ['philip', 'phillip', 'philipose', 'philipos'],
  ['paul', 'paulose', 'poulose', 'paulos'],
  ['zachariah', 'zacharia', 'zacharias', 'skaria', 'scaria'],
  ['cyriac', 'kuriakose', 'kuriakos', 'kuriakku'],
];

/** Spellings that are one name. The first of each group names it in reasons. */
export const VARIANT_GROUPS: string[][] = [
  ['mohammed', 'mohammad', 'muhammad', 'muhammed', 'mohamed', 'mohamad', 'muhamad', 'muhamed', 'mohd', 'md', 'mohmad', 'mohmmad', 'mahomed', 'mhd', 'mohammod'],
  ['lakshmi', 'laxmi', 'lakhsmi', 'luxmi', 'lachmi', 'lakshmy'],
  ['chaudhary', 'chaudhari', 'choudhary', 'choudhari', 'chowdhury', 'chowdhary', 'chaudhuri', 'choudhury', 'chaudhry', 'choudhry', 'chowdary', 'chowdry'],
  ['shaikh', 'sheikh', 'shaik', 'sheik', 'shekh'],
  ['syed', 'sayed', 'sayyed', 'saiyed', 'sayyad', 'saiyad', 'seyed', 'sayyid'],
  ['hussain', 'husain', 'hussein', 'hossain', 'hosain', 'husein'],
  ['banerjee', 'banerji', 'bandyopadhyay', 'bandopadhyay', 'bandyopadhaya', 'bannerjee'],
  ['chatterjee', 'chatterji', 'chattopadhyay', 'chattopadhaya'],
  ['mukherjee', 'mukherji', 'mukhopadhyay', 'mukhopadhaya', 'mukerji'],
  ['ganguly', 'ganguli', 'gangopadhyay', 'gangulee'],
  ['bose', 'basu', 'bosu'],
  ['roy', 'ray'],
  ['thakur', 'tagore', 'thakore'],
  ['iyer', 'aiyar', 'ayyar', 'aiyer'],
  ['iyengar', 'ayyangar', 'aiyangar'],
  ['rao', 'rau', 'ravu'],
  ['naidu', 'nayudu', 'naydu'],
  ['subramanian', 'subramaniam', 'subramanyam', 'subrahmanyam', 'subramaniyan', 'subramanyan', 'subrahmanian'],
  ['abdul', 'abdool'],
  ['bhattacharya', 'bhattacharyya', 'bhattacharjee', 'bhattacharji', 'bhattacharje'],
  ['chakraborty', 'chakrabarty', 'chakrabarti', 'chakravarty', 'chakravarti', 'chakravarthy', 'chakraborti'],
  ['mohapatra', 'mahapatra', 'mahapatro'],
  ['majumdar', 'mazumdar', 'majumder', 'mazumder'],
  ['siddiqui', 'siddiqi', 'siddique', 'siddiquee', 'siddiki'],
  ['rahman', 'rehman', 'rahaman', 'rehaman'],
  ['agarwal', 'aggarwal', 'agrawal', 'agarwala', 'agarwalla', 'aggrawal', 'agrwal'],
  ...CHRISTIAN_NAMES,
];

/** Letter names as Indian scripts spell an initial (एस. for S.), after transliteration and key. */
export const SPELT_INITIALS: Record<string, string> = {
  e: 'a', bi: 'b', si: 'c', di: 'd', i: 'e', ef: 'f', ji: 'g', ec: 'h', ai: 'i', je: 'j', ke: 'k', el: 'l', em: 'm', en: 'n',
  o: 'o', pi: 'p', kyu: 'q', ar: 'r', es: 's', ti: 't', yu: 'u', vi: 'v', dablyu: 'w', eks: 'x', vai: 'y', jed: 'z', set: 'z',
};

/** Two-letter tokens that are words, not two initials. */
export const SHORT_WORDS = new Set(['om', 'de', 'md', 'jo', 'oj', 'ra', 'ao', 'ma', 'ba', 'ho', 'li', 'lo', 'ng', 'oo', 'ud', 'un', 'ur', 'ya', 'ji']);
