using RpcCompare.Runner.Push;

namespace RpcCompare.Runner.Tests.Push;

public sealed class PushSettingsTests
{
    [Theory]
    [InlineData(false, false, "default")]
    [InlineData(true, false, "quick")]
    [InlineData(false, true, "full")]
    public void For_WithoutACeiling_IsTheModesOwnSettings(bool quick, bool full, string mode)
    {
        var settings = PushSettings.For(quick, full, maxSubscribers: null);

        Assert.Equal(mode, settings.Mode);
        Assert.Same(mode switch { "quick" => PushSettings.Quick, "full" => PushSettings.Full, _ => PushSettings.Default }, settings);
    }

    [Fact]
    public void For_ACeiling_ReplacesTheLargestM_AndKeepsTheRestOfTheMode()
    {
        var settings = PushSettings.For(quick: false, full: false, maxSubscribers: 19_000);

        Assert.Equal(19_000, settings.MaxSubscribers);
        Assert.Equal(PushSettings.Default with { MaxSubscribers = 19_000 }, settings);
    }

    [Fact]
    public void For_ACeilingBelowTheFirstStep_StartsTheSearchThere()
    {
        var settings = PushSettings.For(quick: false, full: true, maxSubscribers: 100);

        Assert.Equal(100, settings.FirstSubscribers);
        Assert.Equal(100, settings.MaxSubscribers);
    }

    [Fact]
    public void DefaultCollaboration_PublishesTheOriginals100TimesPerRoom()
    {
        Assert.True(PushSettings.Default.Iterations >= 100, "the original method: at least 100 publications per room");
        Assert.Equal(PushSettings.Full.Iterations, PushSettings.Default.Iterations);
    }
}
