/**
 * The plan store: plans in their stored JSON form (with the values of withheld secret keys, D12, which
 * nothing else shows) with a checksum, sealed with an HMAC when a seal key is set,
 * their status moved by one conditional UPDATE at a time, written with its audit row (an approval both
 * or neither; the store's dialect decides in how many statements), and an audit trail of every act. Tables are
 * named {@code llmsafe_plans}, {@code llmsafe_audit} and {@code llmsafe_schema_version}; the statement
 * analysis refuses every name beginning {@code llmsafe_} (W5), and {@link dev.llmsafe.store.PlanStore#migrate()}
 * creates and upgrades them.
 *
 * <p>Uses plan (the Plan and its JSON), dialect (which database the store is in) and the shared refusals.
 */
package dev.llmsafe.store;
