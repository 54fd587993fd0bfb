using RpcCompare.Contracts.Push;
using RpcCompare.Push.Nats;

namespace RpcCompare.Push.Brokers.Tests.Nats;

public sealed class TopicStreamsTests
{
    [Theory]
    [InlineData("room-1_a", "room-1_a")]
    [InlineData("a.b", "a~2Eb")]
    [InlineData("a b*>", "a~20b~2A~3E")]
    [InlineData("~", "~7E")]
    [InlineData("é", "~C3~A9")]
    public void ATopicsToken_KeepsTheSafeCharacters_AndWritesEveryOtherByteInHex(string topic, string token)
    {
        Assert.Equal(token, TopicStreams.Token(topic));
    }

    [Fact]
    public void DistinctTopics_GetDistinctStreams_EvenWhenTheirTokensWouldBeTooLong()
    {
        var longA = new string('.', PushLimits.MaxTopicLength);
        var longB = new string('.', PushLimits.MaxTopicLength - 1) + ",";
        var streams = new TopicStreams("p");

        var a = streams.For(longA);
        var b = streams.For(longB);

        Assert.NotEqual(a.Stream, b.Stream);
        Assert.All(new[] { a.Stream, b.Stream }, name => Assert.InRange(name.Length, 1, 255));
        Assert.Equal(("p_x", "p.t.x", "p.feed.x"), (streams.For("x").Stream, streams.For("x").Subject, streams.For("x").Feed));
        Assert.NotEqual(streams.For("a.b").Stream, streams.For("a~2Eb").Stream);
    }

    [Theory]
    [InlineData("")]
    [InlineData("a.b")]
    [InlineData("a b")]
    [InlineData("a>")]
    public void APrefixThatIsNotOneToken_IsRefused(string prefix)
    {
        var refused = Assert.Throws<ArgumentException>(() => new TopicStreams(prefix));

        Assert.Contains("letters, digits", refused.Message, StringComparison.Ordinal);
    }
}
