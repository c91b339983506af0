export {
  normalizeText,
  expandAbbreviations,
  streetKey,
  normalizeRep,
  significantTokens,
  ABBREVIATIONS_ANYWHERE,
  ABBREVIATIONS_TYPE_POSITION,
  STOPWORDS,
} from '../../../schemas/tables/address-key.ts';
export {
  parseAddressQuery,
  parseArrondissement,
  KNOWN_CITIES,
  STREET_TYPES,
  type ParsedAddress,
  type ParseOptions,
  type AddressCountry,
} from './parse.ts';
export {
  addressKey,
  addressKeyPrefix,
  banAddressKey,
  banRowToParts,
  scoreCandidate,
  candidateScorer,
  streetSimilarity,
  tokenSimilarity,
  trigramSimilarity,
  SCORE_WEIGHTS,
  type AddressParts,
  type BanRow,
} from './match.ts';
