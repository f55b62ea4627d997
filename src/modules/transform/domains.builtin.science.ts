/**
 * Built-in domains over biomedical text: scientific claims against abstracts (`scifact`),
 * nutrition questions against research (`nfcorpus`) and clinical text (`medical`). The cause,
 * the affected outcome and the direction of the effect carry a claim's meaning, so they weigh
 * more than in `general`; the verdict band (70 Hz) separates support from refutation.
 */
import { defineBuiltin, type BandRow } from './domains.builtin.define.ts';

// prettier-ignore
const STUDY_DESIGNS = ['randomized_controlled_trial', 'cohort', 'case_control', 'cross_sectional', 'meta_analysis',
  'systematic_review', 'animal_model', 'in_vitro', 'case_report', 'computational', 'other'];

// prettier-ignore
const SCIFACT: readonly BandRow[] = [
  ['research_field', 'enum', 0.6, 'The research field of the claim or abstract.',
    ['molecular_biology', 'genetics', 'immunology', 'oncology', 'neuroscience', 'cardiology', 'infectious_disease',
      'pharmacology', 'epidemiology', 'public_health', 'endocrinology', 'microbiology', 'cell_biology', 'other']],
  ['claim_type', 'enum', 1.3, 'What kind of claim is made (or reported as the main finding).',
    ['causal', 'associative', 'comparative', 'descriptive', 'mechanistic', 'prevalence', 'null_finding',
      'methodological']],
  ['claim_structure', 'text', 1.0,
    "The claim as 'X <relation> Y' in one short clause (e.g. 'BRCA1 loss increases breast cancer risk')."],
  ['measured_outcomes', 'multi_value_text', 0.8,
    'Outcomes, endpoints or properties measured, separated by ";" (e.g. mortality; tumor size; expression level).'],
  ['population_setting', 'text', 0.7,
    "The population, organism, cell line or setting studied (e.g. 'adults with type 2 diabetes', 'mouse model')."],
  ['claim', 'text', 2.0, 'The central claim or finding in one plain, self-contained sentence.'],
  ['study_design', 'enum', 0.8, 'The kind of study the evidence comes from.', STUDY_DESIGNS],
  ['intervention_or_cause', 'text', 1.3, 'The intervention, exposure, gene, molecule or factor acting as the cause.'],
  ['affected_outcome', 'text', 1.3, 'The outcome, disease, process or population the cause acts on.'],
  ['effect_direction', 'enum', 1.1, 'The direction of the effect of the cause on the outcome.',
    ['increases', 'decreases', 'no_effect', 'associated_with', 'causes', 'prevents', 'required_for', 'inhibits',
      'activates', 'correlates_with']],
  ['biomedical_entities', 'multi_value_text', 1.5,
    'Genes, proteins, drugs, diseases, cell types and other named entities, as written, separated by ";".'],
  ['quantitative_results', 'multi_value_text', 0.6,
    'Effect sizes, p-values, percentages, sample sizes and doses, separated by ";".'],
  ['mechanism', 'text', 0.7, 'The biological mechanism or reason offered for the effect, in one short sentence.'],
  ['finding_direction', 'enum', 1.2, 'Whether the text reports the effect it is about as present, absent or unclear.',
    ['positive', 'negative', 'null', 'mixed', 'unclear']],
];

// prettier-ignore
const NFCORPUS: readonly BandRow[] = [
  ['topic_area', 'enum', 0.6, 'The nutrition or health topic area.',
    ['nutrition', 'diet_pattern', 'disease_prevention', 'food_safety', 'supplements', 'cancer', 'cardiovascular',
      'metabolic', 'gut_health', 'longevity', 'environmental_toxins', 'other']],
  ['subject_kind', 'enum', 1.3, 'The kind of thing the text is mainly about.',
    ['food', 'nutrient', 'supplement', 'dietary_pattern', 'disease', 'biomarker', 'toxin', 'drug', 'lifestyle_factor',
      'population']],
  ['claim_structure', 'text', 1.0, "The finding as 'X <relation> Y' (e.g. 'flaxseed lowers blood pressure')."],
  ['health_outcomes', 'multi_value_text', 0.9,
    'Health outcomes, diseases or biomarkers discussed, separated by ";" (e.g. LDL cholesterol; colon cancer).'],
  ['population', 'text', 0.6, "The population or setting (e.g. 'postmenopausal women', 'vegetarians', 'rats')."],
  ['main_finding', 'text', 2.0, 'The main finding or question in one plain sentence.'],
  ['study_design', 'enum', 0.7, 'The kind of study the evidence comes from.', STUDY_DESIGNS],
  ['exposure', 'text', 1.3, 'The food, nutrient, diet, compound or behaviour acting as the cause.'],
  ['health_effect', 'text', 1.3, 'The health outcome, disease, biomarker or body system affected.'],
  ['effect_direction', 'enum', 1.0, 'The direction of the effect of the exposure on health.',
    ['increases', 'decreases', 'no_effect', 'associated_with', 'protects_against', 'causes', 'improves', 'worsens']],
  ['named_entities', 'multi_value_text', 1.5,
    'Foods, nutrients, compounds, diseases and biomarkers named, as written, separated by ";".'],
  ['quantities', 'multi_value_text', 0.5, 'Doses, servings, intakes, risk ratios and percentages, separated by ";".'],
  ['mechanism', 'text', 0.7, 'The mechanism or reason offered for the effect, in one short sentence.'],
  ['health_verdict', 'enum', 1.0, 'What the text concludes about the exposure for health.',
    ['beneficial', 'harmful', 'neutral', 'mixed', 'inconclusive']],
];

// prettier-ignore
const MEDICAL: readonly BandRow[] = [
  ['specialty', 'enum', 0.6, 'The medical specialty the text belongs to.',
    ['cardiology', 'oncology', 'neurology', 'endocrinology', 'infectious_disease', 'pulmonology', 'gastroenterology',
      'psychiatry', 'pediatrics', 'obstetrics', 'emergency_medicine', 'pharmacology', 'general_practice', 'other']],
  ['clinical_task', 'enum', 1.3, 'The clinical question or task the text addresses.',
    ['diagnosis', 'treatment', 'prognosis', 'etiology', 'prevention', 'adverse_effects', 'mechanism', 'epidemiology',
      'screening', 'management']],
  ['clinical_relation', 'text', 1.0, "The clinical relation as 'X <relation> Y' (e.g. 'metformin lowers HbA1c')."],
  ['clinical_features', 'multi_value_text', 0.9,
    'Signs, symptoms, findings or properties described, separated by ";" (e.g. chest pain; fever; elevated ALT).'],
  ['patient_context', 'text', 0.8,
    'The patients and setting: age, sex, comorbidities, care setting (e.g. elderly inpatients with CKD).'],
  ['clinical_statement', 'text', 2.0, 'The main clinical statement or question in one plain sentence.'],
  ['evidence_level', 'enum', 0.7, 'Where the statement comes from.',
    ['guideline', 'randomized_trial', 'meta_analysis', 'observational_study', 'case_report', 'expert_opinion',
      'textbook', 'patient_report']],
  ['intervention_or_cause', 'text', 1.2, 'The drug, procedure, exposure or condition acting as the cause.'],
  ['condition_or_outcome', 'text', 1.2, 'The disease, symptom or outcome affected.'],
  ['relation_type', 'enum', 1.0, 'The named clinical relation between cause and condition.',
    ['treats', 'causes', 'diagnoses', 'prevents', 'contraindicated_with', 'interacts_with', 'risk_factor_for',
      'symptom_of', 'side_effect_of', 'monitors']],
  ['medical_entities', 'multi_value_text', 1.5,
    'Diseases, drugs (generic names), genes, tests and codes (ICD, ATC) named, separated by ";".'],
  ['clinical_values', 'multi_value_text', 0.6,
    'Doses, lab values, vital signs, durations, frequencies and percentages, separated by ";".'],
  ['mechanism', 'text', 0.6, 'The physiological or pharmacological mechanism given, in one short sentence.'],
  ['clinical_outcome', 'enum', 1.0, 'The outcome or recommendation the text reaches.',
    ['effective', 'ineffective', 'harmful', 'benefit_with_risks', 'inconclusive', 'recommended', 'not_recommended']],
];

export const SCIENCE_DOMAINS = [
  defineBuiltin({
    short: 'scifact',
    name: 'Scientific claims',
    description: 'Biomedical claims and abstracts: claim type, cause and effect, study design and the verdict.',
    rows: SCIFACT,
  }),
  defineBuiltin({
    short: 'nfcorpus',
    name: 'Nutrition research',
    description: 'Nutrition and health questions against medical research: exposures, health effects, verdicts.',
    rows: NFCORPUS,
  }),
  defineBuiltin({
    short: 'medical',
    name: 'Medical',
    description: 'Clinical text: specialty, task, patients, interventions, conditions and outcomes.',
    rows: MEDICAL,
  }),
];
