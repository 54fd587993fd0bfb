using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.Client.Tests;

/// <summary>
/// The same request gives the same outcome, result or error, on every binding this build offers.
/// The in-process call is the reference: it is the implementation itself.
/// </summary>
public sealed class BindingParityTests : IClassFixture<BindingParityTests.HostFixture>
{
    private readonly HostFixture _fixture;

    public BindingParityTests(HostFixture fixture)
    {
        _fixture = fixture;
    }

    public static TheoryData<ParityCase> Cases() => [.. ParityCases.All()];

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Operation_GivesTheSameOutcomeOnEveryBinding(ParityCase parityCase)
    {
        // The reference first: every binding agreeing on a wrong answer must not pass.
        var reference = await OutcomeAsync(BindingNames.InProc, parityCase);
        Assert.True(parityCase.IsExpected(reference), $"inproc gave {Shorten(reference)}; expected /{parityCase.Expected}/");
        foreach (var binding in _fixture.Factory.Bindings.Where(b => b != BindingNames.InProc))
        {
            // The binding's name rides along so a mismatch says which binding differed.
            var outcome = await OutcomeAsync(binding, parityCase);
            if (parityCase.MayExceedQuota && outcome.StartsWith("error: QuotaExceeded: ", StringComparison.Ordinal))
            {
                continue;
            }

            Assert.Equal((binding, reference), (binding, outcome));
        }
    }

    [Fact]
    public void EveryBindingOfThisBuild_IsCoveredByParity()
    {
        Assert.Equal(BindingNames.All, _fixture.Factory.Bindings);
    }

    private static string Shorten(string outcome) => outcome.Length > 300 ? outcome[..300] + "..." : outcome;

    private Task<string> OutcomeAsync(string binding, ParityCase parityCase) => parityCase.OutcomeAsync(_fixture.Factory, binding, _fixture.Host.Address(binding));

    public sealed class HostFixture : IAsyncLifetime
    {
        private readonly TemporaryDirectory _outside = new();

        public InProcessHost Host { get; private set; } = null!;

        public RpcClientFactory Factory { get; } = RpcClientFactory.CreateDefault();

        public async Task InitializeAsync()
        {
            Host = await InProcessHost.StartAsync();
            Directory.CreateSymbolicLink(Path.Combine(Host.DataRoot, ParityCases.OutsideLinkName), _outside.FullPath);
        }

        public async Task DisposeAsync()
        {
            Factory.Dispose();
            await Host.DisposeAsync();
            _outside.Dispose();
        }
    }
}
