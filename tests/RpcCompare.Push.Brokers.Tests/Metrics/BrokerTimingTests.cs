using System.Diagnostics.Metrics;
using RpcCompare.Push.Internal;

namespace RpcCompare.Push.Brokers.Tests.Metrics;

/// <summary>
/// The broker's share measured on the publishing host (<see cref="BrokerTiming"/>): a publication's number and
/// its arrival on the feed are matched in either order, and only this host's publications are.
/// </summary>
public sealed class BrokerTimingTests : IDisposable
{
    private readonly Meter _meter = new($"test-{Guid.NewGuid():N}");
    private readonly MeterListener _listener = new();
    private readonly List<(string Name, double Seconds)> _measured = [];
    private readonly BrokerTiming _timing;

    public BrokerTimingTests()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (ReferenceEquals(instrument.Meter, _meter))
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<double>((instrument, seconds, _, _) => _measured.Add((instrument.Name, seconds)));
        _listener.Start();
        _timing = new BrokerTiming(_meter);
    }

    private int Published => _measured.Count(m => m.Name == BrokerTiming.PublishDurationName);

    private int FeedDelays => _measured.Count(m => m.Name == BrokerTiming.FeedDelayName);

    public void Dispose()
    {
        _listener.Dispose();
        _meter.Dispose();
    }

    [Fact]
    public void NumberedThenArrived_RecordsOnePublishDuration_AndOneFeedDelay()
    {
        var sent = _timing.Sending("a");
        _timing.Numbered("a", 1, sent);
        Assert.Equal((1, 0), (Published, FeedDelays));

        _timing.Arrived("a", 1);
        _timing.Arrived("a", 1);

        Assert.Equal((1, 1), (Published, FeedDelays));
        Assert.All(_measured, m => Assert.InRange(m.Seconds, 0, 10));
    }

    [Fact]
    public void ArrivedBeforeItsNumber_IsMatchedWhenTheNumberComes_EvenAsTheLastAwaited()
    {
        var sent = _timing.Sending("a");
        _timing.Arrived("a", 1);
        _timing.Numbered("a", 1, sent);

        Assert.Equal((1, 1), (Published, FeedDelays));
    }

    [Fact]
    public void AnArrivalInATopicWithNothingOnItsWay_IsNotClaimedByALaterPublication()
    {
        _timing.Arrived("a", 1);
        var sent = _timing.Sending("a");
        _timing.Numbered("a", 1, sent);
        Assert.Equal(0, FeedDelays);

        _timing.Arrived("a", 1);
        Assert.Equal(1, FeedDelays);
    }

    [Fact]
    public void AnotherTopicsArrival_WhileAPublicationAwaitsItsNumber_IsNotKept()
    {
        var first = _timing.Sending("a");
        _timing.Arrived("b", 1);
        var second = _timing.Sending("b");
        _timing.Numbered("b", 1, second);
        _timing.Numbered("a", 1, first);

        Assert.Equal((2, 0), (Published, FeedDelays));
    }

    [Fact]
    public void EarlyArrivals_AreForgotten_OnceNoPublicationOfTheirTopicAwaitsANumber()
    {
        var first = _timing.Sending("a");
        _timing.Arrived("a", 7);
        _timing.Failed("a", first);
        var second = _timing.Sending("a");
        _timing.Numbered("a", 7, second);

        Assert.Equal((1, 0), (Published, FeedDelays));
    }

    [Fact]
    public void WithNothingListening_NothingIsMeasuredOrKept()
    {
        _listener.Dispose();
        var sent = _timing.Sending("a");
        _timing.Numbered("a", 1, sent);
        _timing.Arrived("a", 1);

        Assert.Equal(0, sent);
        Assert.Empty(_measured);
    }
}
