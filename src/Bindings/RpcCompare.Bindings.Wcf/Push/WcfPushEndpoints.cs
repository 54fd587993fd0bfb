using CoreWCF;
using CoreWCF.Description;
using Microsoft.Extensions.DependencyInjection;
using RpcCompare.Bindings.Wcf.Server;
using RpcCompare.Contracts.Push;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Push;

/// <summary>
/// The duplex push endpoints of wcf-nettcp and wcf-uds: the same contract twice, once calling
/// the typed callback and once sending a message serialized once per publication, so the runner
/// can show what the original's advice (serialize once, send copies) is worth.
/// </summary>
internal static class WcfPushEndpoints
{
    /// <summary>The variant a client asks for, the default first.</summary>
    public const string Typed = "typed";

    public const string PreSerialized = "pre-serialized";

    public static readonly IReadOnlyList<string> Variants = [Typed, PreSerialized];

    public static readonly IReadOnlyList<WcfEndpoint> All =
    [
        new(NameOf(Typed), typeof(IPushDuplexService), typeof(WcfTypedPushService), IsPush: true),
        new(NameOf(PreSerialized), typeof(IPushDuplexService), typeof(WcfPreSerializedPushService), IsPush: true),
    ];

    /// <summary>The endpoint serving <paramref name="variant"/>: rpccompare.v1.PushDuplexService, and ….PreSerialized.</summary>
    public static string NameOf(string variant) => variant switch
    {
        Typed => WcfEndpoints.NameOf(typeof(IPushDuplexService)),
        PreSerialized => WcfEndpoints.NameOf(typeof(IPushDuplexService)) + ".PreSerialized",
        _ => throw new ArgumentOutOfRangeException(nameof(variant), variant, $"WCF push variants: {string.Join(", ", Variants)}."),
    };

    public static void AddServices(IServiceCollection services, TopicRegistry registry, IEnumerable<WcfEndpoint> served)
    {
        services.AddSingleton(registry);
        foreach (var endpoint in served)
        {
            services.AddSingleton(endpoint.Implementation);
            // One instance holding every session, calls answered concurrently: the original's advice.
            services.AddKeyedSingleton<IServiceBehavior>(endpoint.Implementation, WcfServiceModel.CreateServiceBehavior(InstanceContextMode.Single, ConcurrencyMode.Multiple));
        }
    }
}
