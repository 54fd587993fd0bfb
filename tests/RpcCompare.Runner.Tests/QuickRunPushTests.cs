using System.Text.Json;

namespace RpcCompare.Runner.Tests;

/// <summary>One --quick run shared by every test class that reads it (it takes minutes): run once per test assembly.</summary>
[CollectionDefinition(Name)]
public sealed class QuickRunShared : ICollectionFixture<QuickRunTests.QuickRun>
{
    public const string Name = "runner --quick";
}

/// <summary>The push suite of the --quick run: the broadcast search and the collaboration rows for every push variant.</summary>
[Collection(QuickRunShared.Name)]
public sealed class QuickRunPushTests
{
    private readonly QuickRunTests.QuickRun _run;

    public QuickRunPushTests(QuickRunTests.QuickRun run)
    {
        _run = run;
    }

    [Fact]
    public void ReportJson_Push_HasTheBroadcastSearchAndEveryCollaborationRow_ForEveryPushVariant()
    {
        string[] variants =
        [
            "wcf-nettcp/typed", "wcf-nettcp/pre-serialized", "wcf-uds/typed", "wcf-uds/pre-serialized", "wcf-http/long-poll",
            "grpc-tcp/stream", "grpc-tcp/multiplexed", "grpc-tcp/streams-raised/multiplexed", "grpc-uds/stream", "grpc-uds/multiplexed", "grpc-uds/streams-raised/multiplexed",
            "fast-tcp/frames", "fast-uds/frames", "pipes/frames",
        ];
        var push = _run.Root.GetProperty("push");
        Assert.Equal("quick", push.GetProperty("settings").GetProperty("mode").GetString());
        var confirmations = push.GetProperty("settings").GetProperty("confirmBursts").GetInt32();
        Assert.True(confirmations > push.GetProperty("settings").GetProperty("bursts").GetInt32(), "quick mode runs the confirmation too");

        var broadcast = push.GetProperty("broadcast").EnumerateArray().ToList();
        Assert.Equal(variants, broadcast.Select(b => b.GetProperty("target").GetProperty("label").GetString()));
        foreach (var search in broadcast)
        {
            var steps = search.GetProperty("steps").EnumerateArray().ToList();
            Assert.NotEmpty(steps);
            Assert.Equal(5, steps[0].GetProperty("subscribers").GetInt32());
            foreach (var step in steps)
            {
                // A step either held every burst or says why not.
                Assert.True(step.GetProperty("held").GetBoolean() || !string.IsNullOrEmpty(step.GetProperty("failure").GetString()), step.ToString());
                Assert.InRange(step.GetProperty("completed").GetInt32(), 0, step.GetProperty("bursts").GetInt32());
            }

            if (search.GetProperty("maxSubscribers").ValueKind == JsonValueKind.Number)
            {
                // The M reported held its confirmation run, and every notification of that run has a latency.
                var max = search.GetProperty("maxSubscribers").GetInt32();
                Assert.Contains(steps, s => s.GetProperty("confirmation").GetBoolean() && s.GetProperty("held").GetBoolean() && s.GetProperty("subscribers").GetInt32() == max);
                var atMax = search.GetProperty("atMax");
                Assert.Equal(max * confirmations, atMax.GetProperty("count").GetInt64());
                Assert.InRange(atMax.GetProperty("median").GetDouble(), 0, atMax.GetProperty("max").GetDouble());
            }
        }

        var collaboration = push.GetProperty("collaboration").EnumerateArray().ToList();
        Assert.Equal(variants, collaboration.Select(c => c.GetProperty("target").GetProperty("label").GetString()));
        foreach (var row in collaboration)
        {
            // 4 rooms × 3 publications × 1 other member.
            Assert.Equal(12, row.GetProperty("expected").GetInt64());
            Assert.InRange(row.GetProperty("received").GetInt64(), 0, 12);
            if (row.GetProperty("received").GetInt64() > 0)
            {
                Assert.Equal(row.GetProperty("received").GetInt64(), row.GetProperty("latency").GetProperty("count").GetInt64());
            }
        }
    }

    [Fact]
    public void Dashboard_ShowsEveryPushVariantsBroadcastMAndCollaborationLatency_ReadBackFromTheReport()
    {
        var push = _run.Root.GetProperty("push");
        var figures = _run.DashboardEntry.Figures;

        var broadcast = push.GetProperty("broadcast").EnumerateArray().ToList();
        Assert.Equal(broadcast.Select(b => b.GetProperty("target").GetProperty("label").GetString()!), figures["broadcastMax"].Keys);
        Assert.All(broadcast, b => Assert.Equal(
            b.GetProperty("maxSubscribers").ValueKind == JsonValueKind.Number ? (double?)b.GetProperty("maxSubscribers").GetDouble() : null,
            figures["broadcastMax"][b.GetProperty("target").GetProperty("label").GetString()!].Value));
        var collaboration = push.GetProperty("collaboration").EnumerateArray().ToList();
        Assert.Equal(collaboration.Count, figures["collaborationLatency"].Count);
        Assert.All(figures["collaborationLatency"].Keys, k => Assert.EndsWith(", 4 × 2 at 0.2 s", k, StringComparison.Ordinal));
    }
}
