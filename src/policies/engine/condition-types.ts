/** The condition types of Keto v0.5 / ladon; any other `type` is refused when a policy is written. */
export enum ConditionType {
  StringEqual = 'StringEqualCondition',
  StringMatch = 'StringMatchCondition',
  Cidr = 'CIDRCondition',
  EqualsSubject = 'EqualsSubjectCondition',
  StringPairsEqual = 'StringPairsEqualCondition',
  ResourceContains = 'ResourceContainsCondition',
  Boolean = 'BooleanCondition',
}

export const CONDITION_TYPES: readonly string[] = Object.values(ConditionType);
