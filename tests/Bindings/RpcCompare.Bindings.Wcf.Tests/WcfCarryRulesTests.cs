using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Bindings.Wcf.NetTcp;
using RpcCompare.Bindings.Wcf.Uds;
using RpcCompare.ContractCorpus;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>What the CoreWCF bindings refuse: what CoreWCF would not serve, said before it is asked to.</summary>
public sealed class WcfCarryRulesTests
{
    public static TheoryData<Type> CarriedEverywhere() =>
        [typeof(ICalculator), typeof(IService1), typeof(IOrderService), typeof(IParameterShapes), typeof(IShapes), typeof(ITypedMessages), typeof(IStreamedFiles)];

    public static TheoryData<string> Bindings() => [BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp];

    private static IBindingClientProvider Provider(string binding) => binding switch
    {
        BindingNames.WcfNetTcp => new WcfNetTcpClientProvider(),
        BindingNames.WcfUds => new WcfUdsClientProvider(),
        _ => new WcfHttpClientProvider(),
    };

    [Theory]
    [MemberData(nameof(CarriedEverywhere))]
    public void WcfShapes_AreCarriedByEveryWcfBinding(Type contract)
    {
        foreach (var binding in (string[])[BindingNames.WcfNetTcp, BindingNames.WcfUds, BindingNames.WcfHttp])
        {
            Assert.Empty(Provider(binding).Check(contract));
        }
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public void SyncAndTaskFormsOfOneOperation_AreRefused(string binding)
    {
        var refusal = Assert.Single(Provider(binding).Check(typeof(ISyncAndTaskForms)));

        Assert.Equal(
            $"binding {binding} cannot carry operation Add of contract ISyncAndTaskForms: CoreWCF serves an operation declared both synchronously (Add) and Task-based (AddAsync) only on the client side; keep one form in the service's contract",
            refusal.ToString());
    }

    [Theory]
    [MemberData(nameof(Bindings))]
    public void BeginEndOnly_IsRefused_ButNotBesideATaskForm(string binding)
    {
        Assert.Equal(
            $"binding {binding} cannot carry operation Lookup of contract IAsyncPattern: CoreWCF's service side does not dispatch the Begin/End form (BeginLookup); declare the operation Task-based",
            Assert.Single(Provider(binding).Check(typeof(IAsyncPattern))).ToString());
        Assert.Equal(["Split"], Provider(binding).Check(typeof(IAsyncPatternWithOut)).Select(r => r.Operation));
    }

    [Fact]
    public void ValueTaskForms_AreRefused_OnePerOperation()
    {
        var refusals = new WcfNetTcpClientProvider().Check(typeof(IValueTaskForms));

        Assert.Equal(
            [
                ("Add", "CoreWCF does not recognise ValueTask (AddAsync); declare it as Task"),
                ("Clear", "CoreWCF does not recognise ValueTask (ClearAsync); declare it as Task"),
                ("Multiply", "CoreWCF does not recognise ValueTask (MultiplyAsync); declare it as Task"),
                ("Renamed", "CoreWCF does not recognise ValueTask (EchoAsync); declare it as Task"),
            ],
            refusals.Select(r => (r.Operation!, r.Reason)).Order());
    }

    [Fact]
    public void DuplexWithSessions_IsCarriedBySessionfulBindings_NotByBasicHttp()
    {
        Assert.Empty(new WcfNetTcpClientProvider().Check(typeof(IChat)));
        Assert.Empty(new WcfUdsClientProvider().Check(typeof(IChat)));
        Assert.Equal(
            [
                "binding wcf-http cannot carry contract IChat: BasicHttpBinding has no callback channel (CallbackContract IChatCallback)",
                "binding wcf-http cannot carry contract IChat: BasicHttpBinding has no sessions (SessionMode.Required)",
            ],
            new WcfHttpClientProvider().Check(typeof(IChat)).Select(r => r.ToString()));
    }
}
