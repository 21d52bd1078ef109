import { describe, expect, it } from 'vitest';
import { IdentitiesError } from '../../identities/index.js';
import { UiMessages } from '../ui/ui-messages.js';
import { passwordNode, submitNode, traitNodes } from '../ui/ui-nodes.js';
import { attachNodeErrors } from './form-errors.js';
import { traitsProblemOf } from './trait-errors.js';

describe('traitsProblemOf', () => {
  it('a missing trait is 4000002 on its node', () => {
    expect(traitsProblemOf(IdentitiesError.invalidTraits('traits.name.first', "must have required property 'first'", 'required'))).toEqual({
      node: 'traits.name.first',
      message: UiMessages.validationRequired('first'),
    });
  });

  it('other schema errors are 4000001 with the validator text; errors on the whole traits go on the form', () => {
    expect(traitsProblemOf(IdentitiesError.invalidTraits('traits.email', 'must match format "email"', 'format'))).toEqual({
      node: 'traits.email',
      message: UiMessages.validationGeneric('must match format "email"'),
    });
    expect(traitsProblemOf(IdentitiesError.invalidTraits('traits', 'must be object', 'type'))?.node).toBeUndefined();
  });

  it('a conflict is 4000007 on the form; anything else is not a traits problem', () => {
    expect(traitsProblemOf(IdentitiesError.conflict('credentials_identifier', undefined))).toEqual({
      node: undefined,
      message: UiMessages.duplicateCredentials(),
    });
    expect(traitsProblemOf(IdentitiesError.notFound())).toBeUndefined();
    expect(traitsProblemOf(new Error('boom'))).toBeUndefined();
  });
});

describe('attachNodeErrors', () => {
  it('puts each error on the input of its name (never on a submit button) and returns the rest', () => {
    const schema = { properties: { traits: { type: 'object', properties: { email: { type: 'string' } } } } };
    const nodes = [...traitNodes(schema, 'password', {}), passwordNode(), submitNode('password', 'password', UiMessages.signUp())];
    const { nodes: attached, orphans } = attachNodeErrors(nodes, {
      'traits.email': UiMessages.validationRequired('email'),
      method: UiMessages.noLoginStrategy(),
      'traits.unknown': UiMessages.validationGeneric('x'),
    });
    expect(attached[0]!.messages).toEqual([UiMessages.validationRequired('email')]);
    expect(attached[1]!.messages).toBeNull();
    expect(attached[2]!.messages).toBeNull();
    expect(orphans).toEqual([UiMessages.noLoginStrategy(), UiMessages.validationGeneric('x')]);
  });
});
