using RpcCompare.Bindings.Limits;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Limits;

public sealed class OpenFileLimitTests
{
    [Theory]
    [InlineData("Max open files            20000                20000                files     ", 20_000L)]
    [InlineData("Max open files            1024                 1048576              files     ", 1_024L)]
    [InlineData("Max open files            unlimited            unlimited            files     ", null)]
    public void ReadSoftLimit_TakesTheSoftColumnOfTheOpenFilesRow(string row, long? expected)
    {
        using var directory = new TemporaryDirectory();
        var limits = directory.PathFor("limits");
        File.WriteAllLines(limits,
        [
            "Limit                     Soft Limit           Hard Limit           Units     ",
            "Max processes             96365                96365                processes ",
            row,
            "Max locked memory         8388608              8388608              bytes     ",
        ]);

        Assert.Equal(expected, OpenFileLimit.ReadSoftLimit(limits));
    }

    [Fact]
    public void ReadSoftLimit_WithoutTheOpenFilesRow_IsUnknown()
    {
        using var directory = new TemporaryDirectory();
        var limits = directory.PathFor("limits");
        File.WriteAllLines(limits, ["Limit                     Soft Limit           Hard Limit           Units     "]);

        Assert.Null(OpenFileLimit.ReadSoftLimit(limits));
    }

    [Fact]
    public void ReadSoftLimit_WithoutTheFile_IsUnknown()
    {
        using var directory = new TemporaryDirectory();

        Assert.Null(OpenFileLimit.ReadSoftLimit(directory.PathFor("absent")));
    }

    [Theory]
    [InlineData(20_000L, 18_000)]
    [InlineData(1_024L, 512)]
    [InlineData(1_048_576L, 943_719)]
    [InlineData(null, int.MaxValue)]
    [InlineData((long)int.MaxValue, int.MaxValue)] // as good as unlimited
    [InlineData((long)int.MaxValue - 1, 1_932_735_282)]
    public void DefaultMaxConnections_LeavesAShareOfTheFilesToTheRestOfTheHost(long? softLimit, int expected)
    {
        Assert.Equal(expected, OpenFileLimit.DefaultMaxConnections(softLimit));
    }

    [Theory]
    [InlineData(20_000L, 6, 3_000)]
    [InlineData(20_000L, 1, 18_000)]
    [InlineData(1_024L, 6, 85)]
    [InlineData(4_096L, 7, 442)] // the container tests' limit: 3,096 for seven bindings
    [InlineData(3L, 6, 1)] // never 0
    [InlineData(null, 6, int.MaxValue)]
    public void ShareOf_DividesTheBudgetEquallySoTheLimitsAddUpToNoMore(long? softLimit, int bindings, int expected)
    {
        Assert.Equal(expected, OpenFileLimit.ShareOf(softLimit, bindings));
        if (softLimit is not null && expected > 1)
        {
            Assert.True((long)expected * bindings <= OpenFileLimit.DefaultMaxConnections(softLimit));
        }
    }

    [Fact]
    public void ShareOf_NoBindings_IsRefused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => OpenFileLimit.ShareOf(20_000, 0));
    }
}
