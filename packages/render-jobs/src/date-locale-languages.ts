/**
 * The language subtags (ISO 639, two or three letters, aliases included: `iw` is Hebrew) whose dates
 * Node 24's full ICU can write, as `Intl.DateTimeFormat.supportedLocalesOf` answers for each of the
 * 18 278 candidates. A fixed list rather than asking ICU per request, so the OpenAPI document can
 * state exactly what the server takes; tests/unit/card/date-locales.test.ts compares it with the
 * running ICU, so a Node upgrade that changes it fails there first.
 */
export const DATE_LOCALE_LANGUAGES: ReadonlySet<string> = new Set([
  'af', 'ak', 'am', 'ar', 'as', 'az', 'ba', 'be', 'bg', 'bm', 'bn', 'bo', 'br', 'bs', 'ca', 'ce', 'cs', 'cv',
  'cy', 'da', 'de', 'dz', 'ee', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'ff', 'fi', 'fo', 'fr', 'fy', 'ga',
  'gd', 'gl', 'gu', 'gv', 'ha', 'he', 'hi', 'hr', 'hu', 'hy', 'ia', 'id', 'ie', 'ig', 'ii', 'in', 'is', 'it',
  'iw', 'ja', 'ji', 'jv', 'jw', 'ka', 'ki', 'kk', 'kl', 'km', 'kn', 'ko', 'ks', 'ku', 'kw', 'ky', 'lb', 'lg',
  'ln', 'lo', 'lt', 'lu', 'lv', 'mg', 'mi', 'mk', 'ml', 'mn', 'mo', 'mr', 'ms', 'mt', 'my', 'nb', 'nd', 'ne',
  'nl', 'nn', 'no', 'oc', 'om', 'or', 'os', 'pa', 'pl', 'ps', 'pt', 'qu', 'rm', 'rn', 'ro', 'ru', 'rw', 'sa',
  'sc', 'sd', 'se', 'sg', 'sh', 'si', 'sk', 'sl', 'sn', 'so', 'sq', 'sr', 'st', 'su', 'sv', 'sw', 'ta', 'te',
  'tg', 'th', 'ti', 'tk', 'tl', 'tn', 'to', 'tr', 'tt', 'ug', 'uk', 'ur', 'uz', 'vi', 'wo', 'xh', 'yi', 'yo',
  'za', 'zh', 'zu', 'adp', 'afr', 'agq', 'aka', 'alb', 'als', 'amh', 'ara', 'arb', 'arm', 'ars', 'asa',
  'asm', 'ast', 'aze', 'azj', 'bak', 'bam', 'baq', 'bas', 'bel', 'bem', 'ben', 'bez', 'bgc', 'bho', 'bih',
  'blo', 'bod', 'bos', 'bre', 'brx', 'bua', 'bul', 'bur', 'bxk', 'bxr', 'cat', 'ccp', 'ceb', 'ces', 'cgg',
  'che', 'chi', 'chr', 'chv', 'ckb', 'cld', 'cls', 'cmn', 'cnr', 'cor', 'csw', 'cym', 'cze', 'dan', 'dav',
  'deu', 'dgo', 'dje', 'doi', 'drh', 'drw', 'dsb', 'dua', 'dut', 'dyo', 'dzo', 'ebu', 'ekk', 'ell', 'eng',
  'epo', 'est', 'eus', 'ewe', 'ewo', 'fao', 'fas', 'fat', 'fil', 'fin', 'fra', 'fre', 'fry', 'fuc', 'ful',
  'fur', 'gaa', 'gaz', 'geo', 'ger', 'gla', 'gle', 'glg', 'glv', 'gom', 'gre', 'gsw', 'guj', 'guz', 'hau',
  'haw', 'hbs', 'heb', 'hin', 'hrv', 'hsb', 'hun', 'hye', 'ibo', 'ice', 'iii', 'ile', 'ina', 'ind', 'isl',
  'ita', 'jav', 'jaw', 'jgo', 'jmc', 'jpn', 'kab', 'kal', 'kam', 'kan', 'kas', 'kat', 'kaz', 'kde', 'kea',
  'kgp', 'khk', 'khm', 'khq', 'kik', 'kin', 'kir', 'kkj', 'kln', 'kmr', 'kok', 'kor', 'ksb', 'ksf', 'ksh',
  'kur', 'kxv', 'lag', 'lao', 'lav', 'lij', 'lin', 'lit', 'lkt', 'lmo', 'lrc', 'ltz', 'lub', 'lug', 'luo',
  'luy', 'lvs', 'mac', 'mai', 'mal', 'mao', 'mar', 'mas', 'may', 'mer', 'mfe', 'mgh', 'mgo', 'mkd', 'mlg',
  'mlt', 'mni', 'mol', 'mon', 'mri', 'msa', 'mua', 'mup', 'mya', 'mzn', 'naq', 'nde', 'nds', 'nep', 'nld',
  'nmg', 'nnh', 'nno', 'nob', 'nor', 'npi', 'nqo', 'nso', 'nus', 'nyn', 'oci', 'ori', 'orm', 'ory', 'oss',
  'pan', 'pbu', 'pcm', 'per', 'pes', 'plt', 'pms', 'pol', 'por', 'prg', 'prp', 'prs', 'pus', 'que', 'quz',
  'raj', 'rof', 'roh', 'ron', 'rum', 'run', 'rus', 'rwk', 'sag', 'sah', 'san', 'saq', 'sat', 'sbp', 'scc',
  'scn', 'scr', 'seh', 'ses', 'shi', 'shn', 'sin', 'slk', 'slo', 'slv', 'sme', 'smn', 'sna', 'snd', 'som',
  'sot', 'spa', 'spy', 'sqi', 'src', 'srd', 'srp', 'sun', 'swa', 'swc', 'swe', 'swh', 'syr', 'szl', 'tam',
  'tat', 'tel', 'teo', 'tgk', 'tgl', 'tha', 'tib', 'tir', 'tnf', 'tok', 'ton', 'tsn', 'tuk', 'tur', 'twi',
  'twq', 'tyv', 'tzm', 'uig', 'ukr', 'urd', 'uzb', 'uzn', 'vai', 'vec', 'vie', 'vmw', 'vun', 'wae', 'wel',
  'wol', 'xho', 'xnr', 'xog', 'yav', 'ydd', 'yid', 'yor', 'yrl', 'yue', 'zgh', 'zha', 'zho', 'zsm', 'zul',
  'zyb',
]);
