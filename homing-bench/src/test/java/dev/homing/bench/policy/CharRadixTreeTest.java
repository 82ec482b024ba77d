package dev.homing.bench.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CharRadixTreeTest {

    @Test
    void aMatchCountsTheSharedCharactersAndNamesTheTenantThatCreatedTheDeepestNode() {
        CharRadixTree tree = new CharRadixTree(3);
        tree.insert("hello world", 2);
        tree.insert("hello there", 1);

        CharRadixTree.Match m = tree.match("hello thermos");
        assertThat(m.matchedChars()).isEqualTo("hello ther".length());
        assertThat(m.inputChars()).isEqualTo(13);
        assertThat(m.tenant()).isEqualTo(1);
        // "hello " is shared: its node was split out of tenant 2's and keeps tenant 2 as its owner.
        assertThat(tree.match("hello").tenant()).isEqualTo(2);
        assertThat(tree.match("nothing like it").matchedChars()).isZero();
    }

    @Test
    void eachTenantIsChargedTheCharactersOfTheNodesItWasSentThrough() {
        CharRadixTree tree = new CharRadixTree(2);
        tree.insert("abcdef", 0);
        tree.insert("abcxyz", 1);
        tree.insert("abcdef", 1);
        assertThat(tree.chars(0)).isEqualTo(6);
        assertThat(tree.chars(1)).isEqualTo(9); // "abc" + "xyz" + "def"
    }

    @Test
    void evictionRemovesATenantsLeastRecentlyUsedLeavesUntilItIsWithinBudget() {
        CharRadixTree tree = new CharRadixTree(2);
        tree.insert("old-one", 0);
        tree.insert("new-one", 0);
        tree.insert("old-one", 1);
        tree.evictOverBudget(7);

        assertThat(tree.chars(0)).isEqualTo(7);
        assertThat(tree.match("new-one").tenant()).isZero();
        // Tenant 0 left "old-one"; tenant 1 still holds it, so the node stays, now tenant 1's.
        assertThat(tree.match("old-one").matchedChars()).isEqualTo(7);
        assertThat(tree.match("old-one").tenant()).isEqualTo(1);
        assertThat(tree.chars(1)).isEqualTo(7);
    }

    @Test
    void aNodeNoTenantHoldsLeavesTheTree() {
        CharRadixTree tree = new CharRadixTree(1);
        tree.insert("first text", 0);
        tree.insert("second text", 0);
        tree.evictOverBudget(11);
        assertThat(tree.match("first text").matchedChars()).isZero();
        assertThat(tree.match("second text").matchedChars()).isEqualTo(11);
    }

    @Test
    void theTreeWideBudgetEvictsTheOldestLeafAcrossTenantsWhereThePerTenantOneKeepsIt() {
        CharRadixTree perTenant = filled();
        perTenant.evictOverBudget(8);                     // no tenant holds more than 8: nothing goes
        assertThat(perTenant.totalChars()).isEqualTo(12);

        CharRadixTree treeWide = filled();
        treeWide.evictTreeWide(8);                        // 12 > 8: "aaaa" of tenant 0, the oldest leaf, goes
        assertThat(treeWide.totalChars()).isEqualTo(8);
        assertThat(treeWide.match("aaaa").matchedChars()).isZero();
        assertThat(treeWide.match("bbbb").tenant()).isEqualTo(1);
        assertThat(treeWide.match("cccc").tenant()).isZero();
    }

    @Test
    void aMatchReportsAtMostEightTenantsOfTheDeepestNodeAndNoneWhenNothingMatched() {
        CharRadixTree tree = new CharRadixTree(10);
        for (int t = 0; t < 10; t++) {
            tree.insert("shared", t);
        }
        assertThat(tree.match("shared!").tenants()).isEqualTo(0xFFL);
        assertThat(tree.match("other").tenants()).isZero();
    }

    private static CharRadixTree filled() {
        CharRadixTree tree = new CharRadixTree(2);
        tree.insert("aaaa", 0);
        tree.insert("bbbb", 1);
        tree.insert("cccc", 0);
        return tree;
    }
}
