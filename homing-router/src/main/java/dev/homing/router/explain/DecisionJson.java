package dev.homing.router.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.homing.core.director.Decision;
import dev.homing.core.endpoint.EndpointState;
import dev.homing.core.framework.scheduling.FilterStep;
import dev.homing.core.framework.scheduling.PrefixMatch;
import dev.homing.core.framework.scheduling.ProfileResult;
import dev.homing.core.framework.scheduling.SchedulingResult;
import dev.homing.core.framework.scheduling.ScoreBreakdown;
import java.util.List;

/**
 * Renders a decision: every profile's candidates, each plugin's score per endpoint, the weighted totals and the pick.
 * The full form answers {@code POST /debug/schedule}; the compact one rides on a response as {@code x-homing-explain}.
 */
public final class DecisionJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DecisionJson() {
    }

    public static ObjectNode full(Decision decision) {
        SchedulingResult r = decision.result();
        ObjectNode out = JSON.createObjectNode();
        out.put("model", decision.cycle().request().model());
        out.put("targetModel", decision.cycle().request().targetModel());
        // the objective named (x-gateway-inference-objective) and the priority it gave: 0 for none or an unknown one
        out.put("objective", decision.cycle().request().objective());
        out.put("priority", decision.cycle().request().priority());
        out.put("primaryProfile", r.primaryProfile());
        out.set("target", endpoint(r.target()));
        PrefixMatch match = decision.cycle().get(PrefixMatch.KEY);
        if (match != null) {
            ObjectNode prefix = out.putObject("prefix");
            prefix.put("totalBlocks", match.totalBlocks());
            prefix.put("tokensPerBlock", match.tokensPerBlock());
            ObjectNode matched = prefix.putObject("matchedBlocks");
            for (EndpointState e : decision.cycle().snapshot().endpoints()) {
                matched.put(e.name(), match.matched(e));
            }
        }
        if (!decision.cycle().upstreamHeaders().isEmpty()) {
            out.putPOJO("upstreamHeaders", decision.cycle().upstreamHeaders());
        }
        ArrayNode profiles = out.putArray("profiles");
        for (ProfileResult p : r.profiles().values()) {
            ObjectNode pn = profiles.addObject();
            pn.put("name", p.profile());
            ArrayNode filters = pn.putArray("filters");
            for (FilterStep f : p.filters()) {
                ObjectNode fn = filters.addObject();
                fn.put("name", f.name());
                fn.put("type", f.type());
                fn.putPOJO("kept", f.keptNames());
            }
            ArrayNode candidates = pn.putArray("candidates");
            List<EndpointState> c = p.candidates();
            for (int i = 0; i < c.size(); i++) {
                ObjectNode cn = candidates.addObject();
                cn.put("pod", c.get(i).name());
                cn.put("address", c.get(i).endpoint().address());
                ObjectNode scores = cn.putObject("scores");
                for (ScoreBreakdown s : p.scores()) {
                    ObjectNode sn = scores.putObject(s.name());
                    sn.put("type", s.type());
                    sn.put("score", s.scores()[i]);
                    sn.put("weight", s.weight());
                    sn.put("weighted", s.scores()[i] * s.weight());
                }
                cn.put("total", p.totals()[i]);
            }
            pn.putPOJO("picked", p.targets().stream().map(EndpointState::name).toList());
        }
        return out;
    }

    /** One line of JSON: the pick, and per profile each candidate's total and scores. */
    public static String compact(Decision decision) {
        SchedulingResult r = decision.result();
        ObjectNode out = JSON.createObjectNode();
        out.put("target", r.target().name());
        ObjectNode profiles = out.putObject("profiles");
        for (ProfileResult p : r.profiles().values()) {
            ObjectNode pn = profiles.putObject(p.profile());
            pn.putPOJO("picked", p.targets().stream().map(EndpointState::name).toList());
            ObjectNode totals = pn.putObject("totals");
            ObjectNode scores = pn.putObject("scores");
            for (int i = 0; i < p.candidates().size(); i++) {
                String pod = p.candidates().get(i).name();
                totals.put(pod, round(p.totals()[i]));
                ObjectNode sn = scores.putObject(pod);
                for (ScoreBreakdown s : p.scores()) {
                    sn.put(s.name(), round(s.scores()[i]));
                }
            }
        }
        return out.toString();
    }

    private static ObjectNode endpoint(EndpointState e) {
        ObjectNode n = JSON.createObjectNode();
        n.put("pod", e.name());
        n.put("address", e.endpoint().address());
        return n;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
