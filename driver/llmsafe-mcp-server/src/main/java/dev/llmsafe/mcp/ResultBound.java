package dev.llmsafe.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmsafe.Refusal;
import dev.llmsafe.RefusedException;
import dev.llmsafe.tools.ReadResult;
import java.nio.charset.StandardCharsets;

/**
 * R13: no {@code tools/call} result is larger than a bound, in bytes of its UTF-8 JSON (the result
 * object; the JSON-RPC envelope adds the request id and about 40 bytes). A {@code SELECT repeat('x',
 * 3000000)} came back as a 6 MB message, which clients and models choke on. A read is cut to the rows
 * that fit, flagged {@code truncated} with {@code truncatedBy: "bytes"} as the row cap flags its cut
 * (R4): its values stay exact, none is shortened. When not even the first row fits, or another tool's
 * result does not, the call is refused as {@link Refusal#RESULT_TOO_LARGE}, saying what to do.
 */
final class ResultBound {

    private final int maxBytes;

    ResultBound(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    int maxBytes() {
        return maxBytes;
    }

    static int size(ObjectNode result) {
        return JsonRpc.write(result).getBytes(StandardCharsets.UTF_8).length;
    }

    /** The read's result, cut to the rows that fit. */
    ObjectNode read(ProtocolVersion version, ReadResult read) throws RefusedException {
        ObjectNode full = ToolResult.read(version, read);
        int size = size(full);
        if (size <= maxBytes) {
            return full;
        }
        // The size grows with the rows kept: the largest count that fits, by bisection.
        int lo = 0;
        int hi = read.rows().size() - 1;
        ObjectNode best = null;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            ObjectNode cut = ToolResult.read(version, read.firstRows(mid), maxBytes);
            if (size(cut) <= maxBytes) {
                lo = mid;
                best = cut;
            } else {
                hi = mid - 1;
            }
        }
        if (best == null) {
            throw new RefusedException(Refusal.RESULT_TOO_LARGE, "the first row alone is more than the " + maxBytes
                    + " bytes this server returns in one result (the whole result would be " + size + " bytes). Select"
                    + " fewer or shorter columns (substr(col, 1, 1000), length(col)). Nothing was changed.");
        }
        return best;
    }

    /** Any other result, whole or refused; {@code advice} says how to get it another way. */
    ObjectNode whole(ObjectNode result, String what, String advice) throws RefusedException {
        int size = size(result);
        if (size <= maxBytes) {
            return result;
        }
        throw new RefusedException(Refusal.RESULT_TOO_LARGE, what + " is " + size + " bytes, more than the " + maxBytes
                + " bytes this server returns in one result. " + advice);
    }
}
